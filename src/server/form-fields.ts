import type { Files } from '@/engine/files/files';
import type { FileMeta } from '@/engine/files/file-meta';
import 'server-only';
import type { Ops } from '@/engine/ops/ops';
import type { ReferenceChoice } from '@/engine/ops/choices';
import type { ReferenceTitles } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { AppModel, EntityModel, FieldModel } from '@/engine/spec/model';
import { digitsOf } from '@/engine/spec/field-numbers';
import type { ChoiceOption, FormFieldDescriptor, PickerSearch } from '@/ui/forms/state';
import { asNinefoldError } from './errors';
import { MAX_REFERENCES } from '@/engine/spec/join-fields';
import { inSentence } from '@/engine/spec/naming';
import { enumLabel } from '@/ui/format';

/**
 * Up to this many choices a reference or user field's plain input (without JavaScript, and
 * before the combobox takes over) is a select (a multiple one for a references or users field);
 * beyond, an id input. Kept small: the page carries
 * them, and the combobox finds the others on the server as the user types.
 */
export const PLAIN_CHOICES = 50;

function decimalStep(scale: number): string {
  return scale <= 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`;
}

/**
 * The choices of a reference or user field, at most `limit` (PLAIN_CHOICES), or null when they
 * cannot be listed in full (more, or the actor may not list them): the form then asks for an id.
 */
export async function loadChoices(
  ops: Ops,
  actor: Actor,
  entity: EntityModel,
  field: FieldModel,
  query: { limit?: number; within?: number | null } = {},
): Promise<readonly ReferenceChoice[] | null> {
  try {
    const result = await ops.choices(actor, entity.name, field.name, { limit: PLAIN_CHOICES, ...query });
    return result.complete ? result.choices : null;
  } catch (error) {
    if (asNinefoldError(error)) return null;
    throw error;
  }
}

/** Choices as options, with the current value kept even when it is not among them. */
export function choiceOptions(choices: readonly ReferenceChoice[], current: string, currentTitle: string | undefined): ChoiceOption[] {
  const options = choices.map((c) => ({ value: String(c.id), label: c.title }));
  if (current !== '' && !options.some((o) => o.value === current)) {
    options.unshift({ value: current, label: currentTitle ?? `#${current}` });
  }
  return options;
}

/**
 * Where a reference or user field's combobox searches, and the form's value of its `within` (a
 * deal's company: in the form, or fixed by the page, as a related form's parent) when it has one.
 */
export function pickerSearch(
  entity: EntityModel,
  field: FieldModel,
  values: Readonly<Record<string, string>>,
  fixed: Readonly<Record<string, string>> = {},
): { search: PickerSearch; within: number | null } {
  if (!field.within) return { search: { entity: entity.name, field: field.name }, within: null };
  const given = fixed[field.within];
  const raw = given ?? values[field.within] ?? '';
  return {
    search: { entity: entity.name, field: field.name, within: { field: field.within, ...(given !== undefined ? { value: given } : {}) } },
    within: /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null,
  };
}

/** The title of the current value of a reference or user field, from the references ops returned or the actor. */
function currentTitleOf(field: FieldModel, value: string, actor: Actor, references: ReferenceTitles | undefined): string | undefined {
  if (value === '') return undefined;
  const fromRecord = references?.[field.name]?.[Number(value)];
  if (fromRecord) return fromRecord;
  if (field.type === 'user' && value === String(actor.userId)) return actor.name || actor.email;
  return undefined;
}

/** Plain descriptors of the form's fields, with the choices of reference and user fields loaded. */
export async function describeFormFields(options: {
  ops: Ops;
  actor: Actor;
  model: AppModel;
  entity: EntityModel;
  fields: readonly FieldModel[];
  /** Current values, to keep them among the choices. */
  values: Readonly<Record<string, string>>;
  references?: ReferenceTitles;
  /** The viewer's zone (src/server/viewer-zone.ts), named beside date-time inputs. */
  zone: string;
  /** To name the files a record holds (an edit form); without, none are listed. */
  files?: Pick<Files, 'describe'>;
  /** Values the page sets and the form does not hold (a related form's parent), which a `within` reads. */
  fixed?: Readonly<Record<string, string>>;
}): Promise<FormFieldDescriptor[]> {
  const { ops, actor, model, entity, fields, values, references, zone, files, fixed } = options;
  return Promise.all(
    fields.map(async (field): Promise<FormFieldDescriptor> => {
      const spec = field.spec;
      const base = { name: field.name, label: field.label, required: field.required, help: spec.help };
      const value = values[field.name] ?? '';
      switch (spec.type) {
        case 'text':
          return {
            ...base,
            kind: 'text',
            minLength: spec.minLength,
            maxLength: spec.maxLength,
            pattern: spec.pattern,
            patternMessage: spec.patternMessage,
          };
        case 'markdown':
          return { ...base, kind: 'textarea', minLength: spec.minLength, maxLength: spec.maxLength };
        case 'integer':
          return { ...base, kind: 'integer', step: '1', min: field.bounds?.min, max: field.bounds?.max };
        case 'decimal':
        case 'money':
          return {
            ...base,
            kind: 'decimal',
            step: decimalStep(digitsOf(field).scale),
            min: field.bounds?.min,
            max: field.bounds?.max,
            ...(field.currency ? { currency: field.currency } : {}),
          };
        case 'boolean':
          return { ...base, kind: 'checkbox', required: false };
        case 'enum':
          return { ...base, kind: 'select', options: spec.values.map((v) => ({ value: v, label: enumLabel(spec.labels, v) })) };
        case 'date':
          return { ...base, kind: 'date' };
        case 'datetime':
          // Seconds only when the stored value has them; otherwise the browser would refuse it.
          return { ...base, kind: 'datetime', step: value.length > 16 ? '1' : undefined, zone };
        case 'email':
          return { ...base, kind: 'email' };
        case 'url':
          return { ...base, kind: 'url' };
        case 'reference':
        case 'user': {
          const currentTitle = currentTitleOf(field, value, actor, references);
          const { search, within } = pickerSearch(entity, field, values, fixed);
          const choices = await loadChoices(ops, actor, entity, field, { within });
          if (choices === null) {
            const target = spec.type === 'user' ? 'user' : inSentence(model.entitiesByName[spec.to]?.label ?? 'record');
            return { ...base, kind: 'id', currentTitle, search, help: spec.help ?? `Enter the ID of the ${target}.` };
          }
          return { ...base, kind: 'select', search, options: choiceOptions(choices, value, currentTitle) };
        }
        case 'file':
        case 'files': {
          // The files the record holds (an edit), by name, each kept unless unchecked.
          const ids = value
            .split(',')
            .filter((v) => v !== '')
            .map(Number);
          const described = files && ids.length > 0 ? await files.describe(ids) : new Map<number, FileMeta>();
          const current = ids.flatMap((id) => {
            const meta = described.get(id);
            return meta ? [{ id, name: meta.name }] : [];
          });
          return {
            ...base,
            kind: 'files',
            maxItems: field.files?.maxItems ?? 1,
            current,
            ...(field.files?.accept ? { accept: field.files.accept } : {}),
          };
        }
        case 'references':
        case 'users': {
          // As a reference: a combobox searching the server once hydrated; before, and without JavaScript, a multiple select of a few or ids typed.
          const { search } = pickerSearch(entity, field, values, fixed);
          const choices = await loadChoices(ops, actor, entity, field);
          const maxItems = field.maxItems ?? MAX_REFERENCES;
          // The chosen records, named by the record's titles, stay choosable (and named) when not among the choices.
          const options = (choices ?? []).map((c) => ({ value: String(c.id), label: c.title }));
          for (const id of value.split(',').filter((v) => v !== '')) {
            if (!options.some((o) => o.value === id))
              options.unshift({ value: id, label: references?.[field.name]?.[Number(id)] ?? `#${id}` });
          }
          if (choices === null) {
            const target = spec.type === 'users' ? 'users' : `${inSentence(model.entitiesByName[spec.to]?.label ?? 'record')} records`;
            return {
              ...base,
              kind: 'ids',
              maxItems,
              search,
              options,
              help: spec.help ?? `Enter the IDs of the ${target}, separated by commas.`,
            };
          }
          return { ...base, kind: 'multi', maxItems, search, options };
        }
      }
    }),
  );
}
