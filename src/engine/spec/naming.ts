/** How spec names become SQL and URL names. One place, so the store, ops and doors agree. */

export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** "dueAt" → "Due at", "organization" → "Organization". */
export function humanize(name: string): string {
  const words = toSnakeCase(name).replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function defaultPlural(name: string): string {
  const snake = toSnakeCase(name).replace(/_/g, '-');
  if (/[^aeiou]y$/.test(snake)) return `${snake.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(snake)) return `${snake}es`;
  return `${snake}s`;
}

/** Tables of the engine itself start with this prefix; entity tables never do. */
export const SYSTEM_TABLE_PREFIX = 'nf_';

export function tableName(entityName: string): string {
  return toSnakeCase(entityName);
}
