import { ADMIN_ROLE } from '../../access/policy';
import { PUBLIC_ROLE } from '../../access/visitor';
import { at, describeValue, isString, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';

const PRESENTATION_KEYS = ['roles', 'headline', 'summary', 'body', 'date', 'byline', 'tags', 'slug', 'feed'];

/** What each key of a presentation may name: its field types, and the system columns it may be. */
const FIELD_KINDS: Readonly<
  Record<string, { readonly types: readonly string[]; readonly system?: readonly string[]; readonly what: string }>
> = {
  headline: { types: ['text'], what: 'a text field' },
  summary: { types: ['text', 'markdown'], what: 'a text or markdown field' },
  body: { types: ['markdown', 'text'], what: 'a markdown or text field' },
  date: { types: ['date', 'datetime'], system: ['createdAt', 'updatedAt'], what: 'a date or datetime field, createdAt or updatedAt' },
  byline: { types: ['user', 'reference', 'text'], what: 'a user, reference or text field' },
  tags: { types: ['references'], what: 'a references field' },
  slug: { types: ['text'], what: 'a unique text field' },
};

/**
 * Checks `screens.presentation`: by entity, the roles that read it as a publication and the
 * fields each part of the page shows, each of a fitting type; the slug unique; a feed public.
 */
export function checkPresentation(screens: Rec, symbols: Symbols, issues: Issues): void {
  const presentations = screens.presentation;
  const root = 'screens.presentation';
  if (presentations === undefined || !issues.record(presentations, root, 'presentation')) return;
  for (const [name, presentation] of Object.entries(presentations)) {
    const path = at(root, name);
    const entity = symbols.entities.get(name);
    if (!entity) issues.add(path, `unknown entity "${name}" (entities: ${quoteList(symbols.entities.keys())})`);
    else if (issues.record(presentation, path, 'a presentation')) checkOne(presentation, entity, path, symbols, issues);
  }
}

function checkOne(presentation: Rec, entity: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  issues.unknownKeys(presentation, PRESENTATION_KEYS, path, 'a presentation');
  const rolesPath = at(path, 'roles');
  const roles = presentation.roles === undefined ? [] : issues.stringList(presentation.roles, rolesPath);
  if (presentation.roles === undefined || roles.length === 0)
    issues.add(rolesPath, 'name the roles that read these records as a publication, e.g. ["public"]');
  roles.forEach((role, index) => {
    if (role !== PUBLIC_ROLE && role !== ADMIN_ROLE && !symbols.roles.has(role))
      issues.add(
        at(rolesPath, index),
        `unknown role "${role}" (roles: ${quoteList(new Set([PUBLIC_ROLE, ADMIN_ROLE, ...symbols.roles]))})`,
      );
  });
  issues.duplicates(roles, rolesPath, 'role');
  for (const [key, kind] of Object.entries(FIELD_KINDS)) {
    const name = presentation[key];
    if (name === undefined) continue;
    const keyPath = at(path, key);
    if (!isString(name)) {
      issues.add(keyPath, `must be a field name, got ${describeValue(name)}`);
      continue;
    }
    if (kind.system?.includes(name)) continue;
    const field = entity.fields.get(name);
    if (!field) issues.add(keyPath, `unknown field "${name}" of ${entity.name} (fields: ${quoteList(entity.fields.keys())})`);
    else if (!kind.types.includes(String(field.type)) || (key === 'slug' && !isUniqueText(field)))
      issues.add(
        keyPath,
        `"${name}" is a ${String(field.type)}${key === 'slug' ? ' field that is not unique' : ' field'}; ${key} must be ${kind.what}`,
      );
  }
  if (presentation.headline === undefined && ![...entity.fields.values()].some((field) => field.type === 'text'))
    issues.add(at(path, 'headline'), `${entity.name} has no text field to be the headline; name one`);
  issues.optionalBoolean(presentation, 'feed', path);
  if (presentation.feed === true && !roles.includes(PUBLIC_ROLE))
    issues.add(at(path, 'feed'), `a feed is read by anyone, so "${PUBLIC_ROLE}" must be among the roles`);
}

/** A slug field keeps one address per record: declared unique, or a computed slug (unique by construction). */
function isUniqueText(field: Rec): boolean {
  return (
    field.type === 'text' &&
    (field.unique === true || (typeof field.computed === 'object' && field.computed !== null && 'slug' in field.computed))
  );
}
