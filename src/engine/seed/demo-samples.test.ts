import { faker } from '@faker-js/faker';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { FieldModel } from '../spec/model';
import type { FieldSpec } from '../spec/types';
import { fieldSchema } from '../rules/field-schema';
import { demoValue } from './demo-values';

/** A deal's field as the model has it, with the entity's samples for it. */
function fieldOf(name: string, spec: FieldSpec, samples: readonly string[]): FieldModel {
  const model = buildModel({
    name: 'samples',
    entities: { deal: { titleField: 'label', fields: { label: { type: 'text' }, [name]: spec }, samples: { [name]: samples } } },
  });
  return model.entitiesByName.deal!.fieldsByName[name]!;
}

/** `n` values, each (for a unique field) free of those made before, as the seeder asks for them. */
function values(field: FieldModel, n: number, unique: boolean): string[] {
  const taken = new Set<unknown>();
  return Array.from({ length: n }, (_, i) => {
    const value = demoValue(faker, { ...field, required: true }, i + 1, {
      entityName: 'deal',
      titleField: 'label',
      record: { label: 'Quarterly sales review' },
      about: 'Acme',
      ...(unique ? { isFree: (v: unknown) => !taken.has(v) } : {}),
    });
    taken.add(value);
    return String(value);
  });
}

const refused = (field: FieldModel, made: unknown[]) => made.filter((v) => !fieldSchema(field).safeParse(v).success);

describe('demo values of a field with samples', () => {
  beforeEach(() => faker.seed(7));
  const titles = ['Annual licence renewal', 'Pilot for the sales team', 'Support contract'];

  it('are those texts only, each of them in turn, whatever the field and entity names suggest', () => {
    const title = fieldOf('title', { type: 'text', required: true, maxLength: 60 }, titles);
    const made = values(title, 120, false);
    expect(new Set(made)).toEqual(new Set(titles));
  });

  it('of a unique field: every sample as written first, then samples with a number, all distinct', () => {
    const name = fieldOf('name', { type: 'text', required: true, unique: true, maxLength: 24 }, titles);
    const made = values(name, 40, true);
    expect(new Set(made.slice(0, 3))).toEqual(new Set(titles));
    expect(new Set(made).size).toBe(40);
    for (const value of made.slice(3)) {
      const [, text, number] = /^(.*?) (\d+)$/.exec(value) ?? [];
      // A number added to a sample, the sample cut when the field's maxLength needs room for it.
      expect(number).toBeDefined();
      expect(titles.some((t) => t.startsWith(text!))).toBe(true);
    }
    expect(refused(name, made)).toEqual([]);
  });

  it('of a unique field with a pattern: the samples, then shaped to the pattern with a number', () => {
    const code = fieldOf('code', { type: 'text', unique: true, pattern: '^[A-Z]+(-[A-Z0-9]+)*$', maxLength: 20 }, ['RENEWAL', 'PILOT']);
    const made = values(code, 12, true);
    expect(new Set(made.slice(0, 2))).toEqual(new Set(['RENEWAL', 'PILOT']));
    expect(made.slice(2).every((v) => /^(RENEWAL|PILOT)-\d+$/.test(v))).toBe(true);
    expect(new Set(made).size).toBe(12);
    expect(refused(code, made)).toEqual([]);
  });

  it('of two fields with lists of one length: the same place in each, whichever goes first', () => {
    const model = buildModel({
      name: 'samples',
      entities: {
        enquiry: {
          fields: { subject: { type: 'text', required: true }, message: { type: 'markdown', required: true }, note: { type: 'text' } },
          samples: {
            subject: ['Subscription', 'Correction', 'Story tip'],
            message: ['Charged twice.', 'Wrong date.', 'A new road.'],
            note: ['A', 'B'],
          },
        },
      },
    });
    const enquiry = model.entitiesByName.enquiry!;
    const [subject, message, note] = enquiry.fields;
    for (let i = 0; i < 30; i++) {
      const record: Record<string, unknown> = {};
      for (const field of i % 2 ? [subject!, message!, note!] : [message!, subject!, note!])
        record[field.name] = demoValue(faker, { ...field, required: true }, i + 1, {
          entityName: 'enquiry',
          record,
          fields: enquiry.fields,
        });
      expect(message!.samples!.indexOf(String(record.message))).toBe(subject!.samples!.indexOf(String(record.subject)));
      expect(note!.samples).toContain(record.note);
    }
  });

  it('of a markdown field: the bodies as given, whole', () => {
    const bodies = ['Met at the **trade fair**.\n\n- budget approved\n- decision in May', 'Prefers email.'];
    const notes = fieldOf('notes', { type: 'markdown', maxLength: 500 }, bodies);
    expect(new Set(values(notes, 40, false))).toEqual(new Set(bodies));
  });
});
