import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { RecordValue } from '@/engine/ground/record-value';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import { normalizeLineBreaks } from '@/engine/rules/field-schema';
import { ownValue } from '@/engine/spec/own-names';
import type { StaleChange } from '@/ui/forms/state';
import { fieldText } from './field-text';
import { toFormValue } from './forms';

/*
 * What an edit form showed of the record, so that a stale edit (someone saved in between) can
 * say what changed since. The form carries it in a hidden input (SEEN_INPUT): every field the
 * actor may read, as the value an input would hold and as the text a person reads. It is only
 * ever compared with the record read again for the same actor, so a forged one can only
 * mislead its own sender; nothing the actor may not read is ever in it or compared with it.
 */

/** By field name (and the workflow's state field): [the value as a form holds it, the text shown]. */
export type SeenValues = Readonly<Record<string, readonly [string, string]>>;

const EMPTY = '—';

/** A stored value as short plain text, as the detail page would read. */
export function valueText(
  field: FieldModel,
  value: RecordValue | undefined,
  titles: Readonly<Record<number, string>> | undefined,
  zone: string,
  locale: string,
): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  return fieldText(field, value, titles, true, zone, locale) || EMPTY;
}

/** What the actor sees of a record, times in their `zone`: the fields ops returned (never a hidden one) and the state. */
export function seenValues(entity: EntityModel, record: RecordData, references: ReferenceTitles, zone: string, locale: string): SeenValues {
  const seen: Record<string, readonly [string, string]> = {};
  const workflow = entity.workflow;
  if (workflow && typeof record[workflow.field] === 'string') {
    const state = String(record[workflow.field]);
    seen[workflow.field] = [state, workflow.states.find((s) => s.name === state)?.label ?? state];
  }
  for (const field of entity.fields) {
    if (!Object.hasOwn(record, field.name)) continue;
    const value = record[field.name];
    seen[field.name] = [toFormValue(field, value, zone), valueText(field, value, references[field.name], zone, locale)];
  }
  return seen;
}

/**
 * The posted input less the fields the user left as the form showed them, so that a save writes
 * only what changed: a field nobody touched is not re-written (a datetime shown to the minute
 * keeps its seconds, a text keeps its line breaks), not in the history, and not a change a
 * concurrent editor is told of. A file field the post adds files to always goes (they join the
 * files it keeps). `values` are the posted form values, compared with what the form showed, line
 * breaks aside.
 */
export function changedInput(
  input: Readonly<Record<string, string>>,
  values: Readonly<Record<string, string>>,
  seen: SeenValues,
  withNewFiles: ReadonlySet<string>,
): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    const shown = Object.hasOwn(seen, name) ? seen[name]![0] : undefined;
    const posted = Object.hasOwn(values, name) ? values[name]! : value;
    const untouched = shown !== undefined && !withNewFiles.has(name) && sameLines(posted, shown);
    if (!untouched) changed[name] = value;
  }
  return changed;
}

const sameLines = (a: string, b: string) => normalizeLineBreaks(a) === normalizeLineBreaks(b);

/** The posted SEEN_INPUT read back; null when absent or not of the expected shape. */
export function readSeen(posted: FormDataEntryValue | null): SeenValues | null {
  if (typeof posted !== 'string' || posted === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(posted);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const entries = Object.entries(parsed);
  if (
    !entries.every(
      ([, entry]) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string',
    )
  )
    return null;
  // Made with own keys whatever the posted names (an assignment of `__proto__` would change the prototype).
  return Object.fromEntries(entries.map(([name, entry]) => [name, [entry[0], entry[1]] as const]));
}

/**
 * The fields whose value differs between what the user saw and the current record, in the
 * entity's order (the state first). Only fields in both: one the actor may no longer read is
 * not mentioned, and one the user did not see cannot be compared.
 */
export function changesSince(entity: EntityModel, seen: SeenValues, current: SeenValues): StaleChange[] {
  const stateField = entity.workflow?.field;
  const labels = new Map([
    ...(stateField ? [[stateField, 'State'] as const] : []),
    ...entity.fields.filter((f) => f.name !== stateField).map((f) => [f.name, f.label] as const),
  ]);
  const changes: StaleChange[] = [];
  for (const [name, label] of labels) {
    const seenValue = ownValue(seen, name);
    const currentValue = ownValue(current, name);
    if (!seenValue || !currentValue) continue;
    const [before, beforeText] = seenValue;
    const [after, afterText] = currentValue;
    if (before === after) continue;
    changes.push({ field: name, label, from: beforeText, to: afterText });
  }
  return changes;
}

/**
 * The values a stale form comes back with: what the user typed, except where the user left a
 * field as it was shown and someone else changed it since; there the current value, so that
 * saving again does not quietly undo the other person's change. Returns the values and the
 * fields where both changed (the user's value is kept; the notice says so).
 */
export function mergeStale(
  seen: SeenValues,
  current: SeenValues,
  posted: Readonly<Record<string, string>>,
): { values: Record<string, string>; conflicts: Set<string> } {
  const values = { ...posted };
  const conflicts = new Set<string>();
  for (const [name, typed] of Object.entries(posted)) {
    const seenValue = ownValue(seen, name);
    const currentValue = ownValue(current, name);
    if (!seenValue || !currentValue) continue;
    const [before] = seenValue;
    const [after] = currentValue;
    if (before === after) continue;
    if (typed === before) values[name] = after;
    else conflicts.add(name);
  }
  return { values, conflicts };
}
