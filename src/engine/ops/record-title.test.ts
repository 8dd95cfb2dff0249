import { describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import { titleRule } from '../spec/title-rule';
import { ownTitle, recordTitle } from './record-title';

const model = buildModel({
  name: 'titles',
  entities: {
    patient: { fields: { name: { type: 'text' } } },
    appointment: { titleField: 'patient', fields: { patient: { type: 'reference', to: 'patient' } } },
    shift: { titleField: 'nurse', fields: { nurse: { type: 'user' } } },
    note: { titleField: 'body', fields: { body: { type: 'markdown' } } },
    batch: { titleField: 'code', fields: { code: { type: 'integer' } } },
    tally: { fields: { count: { type: 'integer' } } },
  },
});
const { patient, appointment, shift, note, batch, tally } = model.entitiesByName;
const record = (fields: Record<string, unknown>) => ({ id: 7, version: 1, ...fields }) as Parameters<typeof recordTitle>[1];

describe('the title rule', () => {
  it('is read from the model: a value, a reference, a user, or none', () => {
    expect(titleRule(patient!)).toMatchObject({ kind: 'value', field: { name: 'name' } });
    expect(titleRule(appointment!)).toMatchObject({ kind: 'reference', field: { name: 'patient' }, target: 'patient' });
    expect(titleRule(shift!)).toMatchObject({ kind: 'user', field: { name: 'nurse' } });
    expect(titleRule(tally!)).toEqual({ kind: 'none' });
  });
});

describe('recordTitle', () => {
  it('names a record by its text title field, whitespace collapsed', () => {
    expect(recordTitle(patient!, record({ name: '  Ada \n Lovelace ' }))).toBe('Ada Lovelace');
    expect(recordTitle(patient!, record({ name: ' ' }))).toBe('Patient #7');
    expect(recordTitle(batch!, record({ code: 4711 }))).toBe('4711');
    expect(recordTitle(tally!, record({ count: 3 }))).toBe('Tally #7');
  });

  it('reduces Markdown to its first words and cuts long titles', () => {
    expect(recordTitle(note!, record({ body: '# Printer\n\n**Jammed** again, see [the log](https://example.com)' }))).toBe(
      'Printer Jammed again, see the log',
    );
    const long = recordTitle(patient!, record({ name: 'x'.repeat(500) }));
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });

  it('names a record titled by a reference or user by that one’s title, never by its bare id', () => {
    expect(recordTitle(appointment!, record({ patient: 3 }), { patient: { 3: 'Ada Lovelace' } })).toBe('Ada Lovelace');
    // Not readable by the viewer (no title loaded) or not loaded at all: the record's own name.
    expect(recordTitle(appointment!, record({ patient: 3 }), { patient: {} })).toBe('Appointment #7');
    expect(recordTitle(appointment!, record({ patient: 3 }))).toBe('Appointment #7');
    expect(recordTitle(shift!, record({ nurse: 2 }), { nurse: { 2: 'Grace' } })).toBe('Grace');
  });

  it('never names a record by a field the viewer may not read (ops leave it out of the record)', () => {
    expect(recordTitle(appointment!, record({}), { patient: { 3: 'Ada Lovelace' } })).toBe('Appointment #7');
    expect(ownTitle(appointment!, record({}), { patient: { 3: 'Ada Lovelace' } })).toBeNull();
    expect(ownTitle(patient!, record({ name: 'Ada' }))).toBe('Ada');
  });
});
