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

/**
 * A noun with its indefinite article, by how it sounds: "an appointment", "a user", "an hour",
 * "an SLA", "a ticket". Every message or label the engine builds with an article goes through
 * here, so that spec-chosen names read right.
 */
export function withArticle(noun: string): string {
  return `${soundsLikeVowel(noun.trim()) ? 'an' : 'a'} ${noun}`;
}

/** Initialisms read letter by letter: these letters' names start with a vowel sound (an FAQ, an SLA). */
const VOWEL_SOUND_LETTERS = 'AEFHILMNORSX';

function soundsLikeVowel(word: string): boolean {
  if (/^[A-Z]{2,}\b/.test(word)) return VOWEL_SOUND_LETTERS.includes(word[0]);
  const lower = word.toLowerCase();
  // "u" read "you" and "o" read "w": a user, a unique key, a one-off.
  if (/^(uni|use|usu|ur[aeiou]|ut[ei]|eu|ewe|one\b|once)/.test(lower)) return false;
  // A silent "h": an hour, an honest answer.
  if (/^(hour|honest|honou?r|heir)/.test(lower)) return true;
  return /^[aeiou]/.test(lower);
}

/** The text with its first letter in upper case, for a phrase that starts a sentence. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
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
