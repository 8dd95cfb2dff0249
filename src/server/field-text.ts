import type { RecordValue } from '@/engine/ground/record-value';
import type { FieldModel } from '@/engine/spec/model';
import { markdownExcerpt, truncate } from '@/engine/excerpt';
import { enumLabel, formatBoolean, formatDate, formatDateTime } from '@/ui/format';
import { formatFieldNumber } from '@/engine/numbers/format';

const SHORT_MAX = 80;

/**
 * A stored (non-empty) value as plain text, formatted as the pages show it: enum labels, titles
 * of referenced records and names of users (an id, "#12", where the viewer may not read the
 * record), Yes/No, times in `zone` with the zone named, numbers and amounts in `locale` ("€38,533.32").
 * `short` cuts long text to a line (Markdown to its excerpt), as a notice quotes it; a file (CSV)
 * wants it whole, and its numbers plain as stored (`locale` null: "38533.32"), for a program to read.
 */
export function fieldText(
  field: FieldModel,
  value: RecordValue,
  titles: Readonly<Record<number, string>> | undefined,
  short: boolean,
  zone: string,
  locale: string | null,
): string {
  const spec = field.spec;
  switch (spec.type) {
    case 'boolean':
      return formatBoolean(value);
    case 'enum':
      return enumLabel(spec.labels, String(value));
    case 'date':
      return formatDate(value)?.text ?? String(value);
    case 'datetime':
      return formatDateTime(value, zone)?.text ?? String(value);
    case 'markdown':
      return short ? markdownExcerpt(String(value), SHORT_MAX) : String(value);
    case 'reference':
    case 'user':
      return titles?.[Number(value)] ?? `#${String(value)}`;
    case 'references':
    case 'users':
      return Array.isArray(value) ? value.map((id: number) => titles?.[id] ?? `#${id}`).join(', ') : '';
    case 'integer':
    case 'decimal':
    case 'money':
      return (locale === null ? null : formatFieldNumber(field, value, locale)) ?? String(value);
    default: {
      const text = value instanceof Date ? value.toISOString() : String(value);
      return short ? truncate(text, SHORT_MAX) : text;
    }
  }
}
