import type { FieldModel } from '../spec/model';
import { restoreFormula } from './formula';

/*
 * A cell of an imported file as the value a person would give in the form: an enum by its label
 * or value, a date or time in ISO 8601 or as exports write it ("Mar 1, 2025", "Mar 1, 2025,
 * 14:03 UTC": exports write times in UTC, while pages show them in the viewer's zone). A time
 * without a zone is UTC. Booleans (yes/no, true/false, 1/0) and numbers are read by the
 * field's own schema in ops, like a form's; references and users are looked up by ops.lookup.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** "Mar 1, 2025" — src/ui/format.ts's date. */
const SHOWN_DATE = /^([a-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})$/i;
/** "Mar 1, 2025, 14:03 UTC" — src/ui/format.ts's date and time in UTC, as a CSV export writes it. */
const SHOWN_DATE_TIME = /^([a-z]{3})[a-z]*\.? (\d{1,2}), (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?UTC| ?Z)?$/i;
/** "2025-03-01 14:03" as spreadsheets write it: the ISO form with a space. */
const SPACED_ISO = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z| ?UTC|[+-]\d{2}:?\d{2})?$/i;

const pad = (n: string | number) => String(n).padStart(2, '0');

// The groups read below are not optional in their patterns: a match has them.
function shownDate(text: string): string | null {
  const match = SHOWN_DATE.exec(text);
  const month = match ? MONTHS.indexOf(match[1]!.toLowerCase()) : -1;
  return match && month >= 0 ? `${match[3]}-${pad(month + 1)}-${pad(match[2]!)}` : null;
}

function shownDateTime(text: string): string | null {
  // A day alone is its start, in UTC like every time the pages show.
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : shownDate(text);
  if (day) return `${day}T00:00Z`;
  const spaced = SPACED_ISO.exec(text);
  if (spaced) return `${spaced[1]}T${spaced[2]}${spaced[3] && !/utc/i.test(spaced[3]) ? spaced[3] : 'Z'}`;
  const match = SHOWN_DATE_TIME.exec(text);
  const month = match ? MONTHS.indexOf(match[1]!.toLowerCase()) : -1;
  if (!match || month < 0) return null;
  return `${match[3]}-${pad(month + 1)}-${pad(match[2]!)}T${pad(match[4]!)}:${match[5]}:${match[6] ?? '00'}Z`;
}

function enumValue(field: FieldModel, text: string): string {
  const values = field.enumValues ?? [];
  if (values.includes(text)) return text;
  const wanted = text.toLowerCase();
  const labels = field.spec.type === 'enum' ? (field.spec.labels ?? {}) : {};
  return values.find((v) => labels[v]?.toLowerCase() === wanted) ?? values.find((v) => v.toLowerCase() === wanted) ?? text;
}

/**
 * The input value of a cell for a field, or undefined when the cell is empty: the field is then
 * not given, so that its default applies as in a form left blank. References and users are left
 * as text for the lookup.
 */
export function cellInput(field: FieldModel, cell: string): string | undefined {
  const text = restoreFormula(cell);
  if (text.trim() === '') return undefined;
  switch (field.type) {
    case 'enum':
      return enumValue(field, text.trim());
    case 'date':
      return shownDate(text.trim()) ?? text.trim();
    case 'datetime': {
      // An export marks a due time that has passed: "… UTC (overdue)".
      const time = text.trim().replace(/ \(overdue\)$/i, '');
      return shownDateTime(time) ?? time;
    }
    case 'integer':
    case 'decimal':
    case 'money':
    case 'boolean':
    case 'reference':
    case 'references':
    case 'user':
    case 'users':
    case 'email':
    case 'url':
      return text.trim();
    default:
      return text;
  }
}
