/**
 * The one leaf comparer of the in-memory readers (two- and three-valued): a value of a record
 * against another, as the database compares them. Null when either is empty or they cannot be
 * compared (SQL's unknown). Times compare by time (an ISO string met with a Date is read as a
 * time), numbers by number (a decimal is kept as a string), booleans false before true.
 */
export function compareValues(a: unknown, b: unknown): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (a instanceof Date || b instanceof Date) {
    const ta = a instanceof Date ? a.getTime() : Date.parse(String(a));
    const tb = b instanceof Date ? b.getTime() : Date.parse(String(b));
    return Number.isNaN(ta) || Number.isNaN(tb) ? null : Math.sign(ta - tb);
  }
  if (typeof a === 'number' || typeof b === 'number') {
    const na = Number(a);
    const nb = Number(b);
    return Number.isNaN(na) || Number.isNaN(nb) ? null : Math.sign(na - nb);
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    const ba = a === true || a === 'true';
    const bb = b === true || b === 'true';
    return ba === bb ? 0 : ba ? 1 : -1;
  }
  const sa = String(a);
  const sb = String(b);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

/** Whether a comparison's order satisfies its operator. */
export function orderHolds(op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte', order: number): boolean {
  switch (op) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
  }
}

/** A value the record has: not empty, and not only blanks (what a form's empty input holds). */
export function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined && !(typeof value === 'string' && value.trim() === '');
}

/** A stored time, or null when the value is empty or not a time. */
export function timeOf(value: unknown): Date | null {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}
