import type { EntityModel } from '@/engine/spec/model';
import { dueHours } from '@/engine/spec/due';
import type { ConstantSpec } from '@/engine/spec/types';
import { enumLabel } from '../format';
import { inSentence } from '@/engine/spec/naming';

/*
 * What a computed due time promises, told beside it on the detail page: the time itself and
 * whether it has passed are the engine's field (`due`), set by ops; this only words the promise
 * ("SLA 24 h for normal priority") with the constant's description.
 */

/** The promise behind one record's due time. */
export interface DueNote {
  readonly field: string;
  /** "SLA" for `slaHours`; the field's label when the hours are a plain number. */
  readonly label: string;
  readonly hours: number;
  /** "normal priority": the value of `by` that picked the hours. */
  readonly because?: string;
  readonly constant?: string;
  readonly description?: string;
}

/** "slaHours" → "SLA", "responseHours" → "Response", "firstReplyHours" → "First reply". */
export function constantLabel(name: string): string {
  const stem = name.replace(/_?hours$/i, '') || name;
  if (stem.length <= 4 && /^[a-z]+$/i.test(stem)) return stem.toUpperCase();
  const words = stem
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * For each due field of the record, by field name: its hours and why. A record shown without the
 * field that picks the hours (hidden from this viewer) gets no note, which would tell its value.
 */
export function dueNotes(
  constants: Readonly<Record<string, ConstantSpec>>,
  entity: EntityModel,
  record: Readonly<Record<string, unknown>>,
): Record<string, DueNote> {
  const notes: Record<string, DueNote> = {};
  for (const field of entity.fields) {
    const due = field.due;
    if (!due || !Object.hasOwn(record, field.name)) continue;
    const hours = dueHours(due, record);
    if (hours === null) continue;
    const by = due.by === null ? null : entity.fieldsByName[due.by];
    const value = by ? record[by.name] : undefined;
    const description = due.constant ? constants[due.constant]?.description : undefined;
    notes[field.name] = {
      field: field.name,
      label: due.constant ? constantLabel(due.constant) : field.label,
      hours,
      ...(by && by.spec.type === 'enum' && typeof value === 'string'
        ? { because: `${inSentence(enumLabel(by.spec.labels, value))} ${inSentence(by.label)}` }
        : {}),
      ...(due.constant ? { constant: due.constant } : {}),
      ...(description ? { description } : {}),
    };
  }
  return notes;
}

/** "SLA 24 h for normal priority". */
export function dueText(note: DueNote): string {
  return `${note.label} ${note.hours} h${note.because ? ` for ${note.because}` : ''}`;
}
