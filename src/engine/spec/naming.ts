import type { EntitySpec } from './types';
/** How spec names become SQL and URL names. One place, so the store, ops and doors agree. */

export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** The text before the first `separator`, or all of it when there is none: what `text.split(separator)[0]` holds (the separator not empty). */
export function beforeFirst(text: string, separator: string): string {
  const end = text.indexOf(separator);
  return end === -1 ? text : text.slice(0, end);
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
  if (/^[A-Z]{2,}\b/.test(word)) return VOWEL_SOUND_LETTERS.includes(word.charAt(0));
  const lower = word.toLowerCase();
  // "u" read "you" and "o" read "w": a user, a unique key, a one-off.
  if (/^(uni|use|usu|ur[aeiou]|ut[ei]|eu|ewe|one\b|once)/.test(lower)) return false;
  // A silent "h": an hour, an honest answer.
  if (/^(hour|honest|honou?r|heir)/.test(lower)) return true;
  return /^[aeiou]/.test(lower);
}

/**
 * A label as it reads inside a sentence: "Clinical notes" → "clinical notes", "Ticket Priority" →
 * "ticket priority". A word written otherwise than capitalised keeps its case: initialisms and
 * names ("PO number", "SLA due", "Ticket IDs" → "ticket IDs", "iPhone model"), single letters
 * ("Plan B").
 */
export function inSentence(label: string): string {
  return label.replace(/\S+/g, (word) => (CAPITALISED_WORD.test(word) ? word.toLowerCase() : word));
}

/** One capital then small letters, digits, apostrophes or hyphens, with any punctuation around: "Ticket", "E-mail", "(Optional)". */
const CAPITALISED_WORD = /^[^\p{L}]*\p{Lu}[\p{Ll}\d'’-]+[^\p{L}]*$/u;

/**
 * A label inside a sentence with the article it takes when it names one thing: "an assignee",
 * "a PO number", "an SLA target"; a plural or an uncountable noun takes none: "clinical notes",
 * "attachments", "ticket IDs", "feedback". Every message that names a field or record by its
 * label goes through here ("Needs an assignee.", "Needs clinical notes.").
 */
export function indefinite(label: string): string {
  const phrase = inSentence(label.trim());
  return takesNoArticle(phrase) ? phrase : withArticle(phrase);
}

/** Singular words ending in "s" that the plural test below would take for plurals. */
const SINGULAR_IN_S = new Set([
  'alias',
  'atlas',
  'bias',
  'canvas',
  'chaos',
  'cosmos',
  'ethos',
  'gas',
  'lens',
  'means',
  'series',
  'species',
]);
/** Plurals without an "s", and nouns that are not counted: neither takes "a". */
const WITHOUT_ARTICLE = new Set([
  'people',
  'children',
  'men',
  'women',
  'staff',
  'personnel',
  'criteria',
  'data',
  'metadata',
  'media',
  'advice',
  'content',
  'documentation',
  'equipment',
  'evidence',
  'feedback',
  'funding',
  'hardware',
  'information',
  'insurance',
  'knowledge',
  'luggage',
  'money',
  'news',
  'research',
  'software',
  'work',
]);

/** Whether a noun phrase (its last word is the noun) is a plural or uncountable, so takes no indefinite article. */
function takesNoArticle(phrase: string): boolean {
  const last =
    phrase
      .split(/[^\p{L}]+/u)
      .filter(Boolean)
      .pop() ?? '';
  // An initialism is one thing ("GPS"); with a small "s" after it, several ("IDs", "URLs").
  if (/^\p{Lu}+$/u.test(last)) return false;
  if (/^\p{Lu}{2,}s$/u.test(last)) return true;
  const word = last.toLowerCase();
  if (WITHOUT_ARTICLE.has(word)) return true;
  if (SINGULAR_IN_S.has(word)) return false;
  // Notes, attachments, categories, boxes; not status, address, analysis, bonus.
  return /s$/.test(word) && !/(ss|us|is)$/.test(word);
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

/** An entity's label and plural label, defaults filled in (what derived fields' texts name their related records by, too). */
export function entityLabels(name: string, entity: EntitySpec): { readonly label: string; readonly pluralLabel: string } {
  return {
    label: entity.label ?? humanize(name),
    pluralLabel: entity.pluralLabel ?? humanize(entity.plural ?? defaultPlural(name)).replace(/-/g, ' '),
  };
}
