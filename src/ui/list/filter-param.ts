/** The list's own parameters in its address; a filter on a field of the same name takes a prefix. */
const RESERVED = new Set(['sort', 'q', 'cursor', 'columns']);

/** The search parameter a filter uses: the field's name, unless that name is taken by the list itself. */
export function filterParam(field: string): string {
  return RESERVED.has(field) ? `filter.${field}` : field;
}
