import type { HistoryEntry, ReferenceTitles } from '@/engine/ops/types';
import type { RecordValue } from '@/engine/ground/record-value';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import { humanize } from '@/engine/spec/naming';
import { markdownExcerpt, truncate } from '@/engine/excerpt';
import { enumLabel, formatBoolean, formatDate, formatDateTime } from '../format';
import { formatFieldNumber } from '@/engine/numbers/format';

/** One changed field, ready to print: "Priority: Normal → High". */
export interface ChangeLine {
  readonly field: string;
  readonly label: string;
  readonly from: string;
  readonly to: string;
  /** For a set (a references or users field): what was added and removed, "added News, removed Sport". */
  readonly sentence?: string;
}

/** A history entry, ready to print. */
export interface HistoryItem {
  /** "created", "changed", "deleted", or the transition's label ("Start"). */
  readonly verb: string;
  /** For a transition: the states left and entered, by label. */
  readonly states?: { readonly from: string; readonly to: string };
  readonly comment: string | null;
  readonly changes: readonly ChangeLine[];
  /** For a change made as the effect of a write on another record: "by transition Check out of Loan #12". */
  readonly cause?: string;
}

export const NO_VALUE = '—';

/** A stored value as text, by the field's type; references by title, or "#id" when the title is unknown; numbers in `locale`. */
export function historyValue(
  field: FieldModel,
  value: RecordValue,
  titles: Readonly<Record<number, string>> | undefined,
  zone: string,
  locale: string,
): string {
  if (value === null || value === undefined || value === '') return NO_VALUE;
  const spec = field.spec;
  switch (spec.type) {
    case 'enum':
      return enumLabel(spec.labels, String(value));
    case 'boolean':
      return formatBoolean(value);
    case 'date':
      return formatDate(value)?.text ?? String(value);
    case 'datetime':
      return formatDateTime(value, zone)?.text ?? String(value);
    case 'markdown':
      return markdownExcerpt(String(value), 80);
    case 'integer':
    case 'decimal':
    case 'money':
      return formatFieldNumber(field, value, locale) ?? String(value);
    case 'reference':
    case 'user': {
      const id = Number(value);
      return titles?.[id] ?? `#${id}`;
    }
    case 'references':
    case 'users':
      return (
        idsOf(value)
          .map((id) => titles?.[id] ?? `#${id}`)
          .join(', ') || NO_VALUE
      );
    default:
      return truncate(String(value instanceof Date ? value.toISOString() : value), 80);
  }
}

function idsOf(value: RecordValue): readonly number[] {
  return Array.isArray(value) ? (value as readonly number[]) : [];
}

/** A set's change as what was added and what was removed, each by title ("#id" when unknown). */
function setChange(
  field: FieldModel,
  from: RecordValue,
  to: RecordValue,
  titles: Readonly<Record<number, string>> | undefined,
): ChangeLine {
  const before = idsOf(from);
  const after = idsOf(to);
  const named = (ids: readonly number[]) => ids.map((id) => titles?.[id] ?? `#${id}`).join(', ');
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  // Files are attached to the record, not chosen among others: "attached report.pdf".
  const addedVerb = field.files ? 'attached' : 'added';
  const sentence = [added.length > 0 ? `${addedVerb} ${named(added)}` : '', removed.length > 0 ? `removed ${named(removed)}` : '']
    .filter(Boolean)
    .join(', ');
  return {
    field: field.name,
    label: field.label,
    from: named(before) || NO_VALUE,
    to: named(after) || NO_VALUE,
    sentence: sentence || NO_VALUE,
  };
}

function stateLabel(entity: EntityModel, name: string): string {
  return entity.workflow?.states.find((s) => s.name === name)?.label ?? name;
}

/**
 * What an entry says, in the order of the entity's fields. Only the changes ops handed over are
 * printed (ops leaves out the fields the viewer may not read); a create lists none of its
 * initial values, the record itself shows them, but the files it came with ("attached shot.png").
 */
export function describeHistoryEntry(
  entity: EntityModel,
  entry: HistoryEntry,
  titles: ReferenceTitles,
  zone: string,
  locale: string,
): HistoryItem {
  const shown = Object.entries(entry.changes).filter(
    ([name]) => entry.action !== 'create' || entity.fieldsByName[name]?.files !== undefined,
  );
  const changes: ChangeLine[] =
    entry.action === 'delete'
      ? []
      : shown
          .sort(([a], [b]) => entity.fields.findIndex((f) => f.name === a) - entity.fields.findIndex((f) => f.name === b))
          .map(([name, change]) => {
            const field = entity.fieldsByName[name];
            if (!field)
              return { field: name, label: humanize(name), from: String(change.from ?? NO_VALUE), to: String(change.to ?? NO_VALUE) };
            if (field.joinTable !== undefined) return setChange(field, change.from, change.to, titles[name]);
            return {
              field: name,
              label: field.label,
              from: historyValue(field, change.from, titles[name], zone, locale),
              to: historyValue(field, change.to, titles[name], zone, locale),
            };
          });
  const item = historyItem(entity, entry, changes);
  return entry.cause ? { ...item, cause: entry.cause.text } : item;
}

function historyItem(entity: EntityModel, entry: HistoryEntry, changes: ChangeLine[]): HistoryItem {
  switch (entry.action) {
    case 'create':
      return { verb: 'created', comment: null, changes };
    case 'delete':
      return { verb: 'deleted', comment: null, changes };
    case 'update':
      return { verb: 'changed', comment: null, changes };
    case 'transition': {
      const t = entry.transition;
      if (!t) return { verb: 'changed', comment: null, changes };
      return { verb: t.label, states: { from: stateLabel(entity, t.from), to: stateLabel(entity, t.to) }, comment: t.comment, changes };
    }
  }
}
