import { sql, type SqlBool } from 'kysely';
import { rowScope } from '../access/authorize';
import { readableFields } from '../access/fields';
import { fieldSight } from '../access/field-sight';
import { normalizeEmail } from '../identity/identity';
import type { EntityModel } from '../spec/model';
import { USER_TABLE } from '../store/schema/desired';
import { choosableField } from './choices';
import type { OpsContext } from './context';
import type { Actor } from '../ground/actor';
import { inSentence } from '../spec/naming';
import { declaredField, referencedEntity } from './declared';
import { holdsUsers } from '../spec/join-fields';

/** What one value of a reference or user field names: a record's or user's id, or why none. */
export type LookupResult = { readonly id: number } | { readonly error: string };

/** Values per `in (...)` list. */
const VALUES_PER_QUERY = 1000;
const ID = /^#?([1-9]\d{0,15})$/;

/**
 * The records or users that values of a reference or user field name as a person writes them in
 * a file: an id ("12" or "#12", checked later like any id a form sends), a user's email or name,
 * or the exact title of a record the actor may read (letter case aside when nothing matches
 * exactly). A title or name that several share is refused, naming how many: the id tells them
 * apart. The field must be one the actor may read or write, as for a form's choices.
 * A few queries per thousand distinct values.
 */
export async function lookupReferences(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  fieldName: string,
  texts: readonly string[],
): Promise<Map<string, LookupResult>> {
  const { field } = choosableField(ctx, actor, entityName, fieldName);
  const results = new Map<string, LookupResult>();
  const names: string[] = [];
  for (const raw of new Set(texts)) {
    const text = raw.trim();
    const id = ID.exec(text);
    if (id) results.set(raw, { id: Number(id[1]) });
    else if (text !== '') names.push(raw);
  }
  if (names.length === 0) return results;
  const target = holdsUsers(field) ? null : referencedEntity(ctx.model, field);
  const found = target ? await byTitle(ctx, actor, target, names) : await usersByEmailOrName(ctx, names);
  const what = target ? inSentence(target.label) : 'user';
  const whats = target ? inSentence(target.pluralLabel) : 'users';
  for (const name of names) {
    const ids = found(name.trim());
    if (typeof ids === 'string') {
      results.set(name, { error: ids });
      continue;
    }
    const [id, ...others] = ids;
    if (id !== undefined && others.length === 0) results.set(name, { id });
    else if (id === undefined) results.set(name, { error: `No ${what} ${target ? 'titled' : 'with the email or name'} “${name.trim()}”.` });
    else results.set(name, { error: `${ids.length} ${whats} are ${target ? 'titled' : 'named'} “${name.trim()}”: give the id instead.` });
  }
  return results;
}

type Finder = (text: string) => readonly number[] | string;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += VALUES_PER_QUERY) out.push(items.slice(start, start + VALUES_PER_QUERY));
  return out;
}

function group(rows: readonly { key: string; id: number }[], into: Map<string, number[]>): void {
  for (const row of rows) {
    const ids = into.get(row.key) ?? into.set(row.key, []).get(row.key)!;
    if (!ids.includes(row.id)) ids.push(row.id);
  }
}

/**
 * The column whose value titles records of `target` for this actor, to find them by title (an
 * import's "Acme" for a company): its title field when the actor may read it there, else none. A
 * title field that refers to another record or a user holds that one's id: none either.
 */
function titleColumnFor(target: EntityModel, actor: Actor): string | null {
  if (!target.titleField || !readableFields(target, actor).includes(target.titleField)) return null;
  const field = declaredField(target, target.titleField);
  if (field.type === 'reference' || field.type === 'user') return null;
  return field.column;
}

/** Records of `target` in the actor's read scope by their title field, exactly, then ignoring case. */
async function byTitle(ctx: OpsContext, actor: Actor, target: EntityModel, texts: readonly string[]): Promise<Finder> {
  const column = titleColumnFor(target, actor);
  const scope = rowScope(ctx.model, target, actor, 'read');
  // Only records whose title the actor reads can be found by it (field-sight.ts).
  const readableWhere = target.titleField ? fieldSight(ctx.model, target, actor).readableWhere(target.titleField) : null;
  if (!column || !scope)
    return () => `Give the id of the ${inSentence(target.label)}: ${inSentence(target.pluralLabel)} cannot be found by title here.`;
  const title = sql<string>`${sql.ref(column)}::text`;
  const seen = readableWhere ? sql<SqlBool>`(${scope.sql}) and (${readableWhere})` : scope.sql;
  const exact = new Map<string, number[]>();
  for (const chunk of chunks(texts.map((t) => t.trim()))) {
    const rows = await ctx.db
      .selectFrom(target.table)
      .select(['id', title.as('key')])
      .where(title, 'in', chunk)
      .where(seen)
      .execute();
    group(
      rows.map((r) => ({ key: String(r.key), id: Number(r.id) })),
      exact,
    );
  }
  const folded = new Map<string, number[]>();
  const rest = [
    ...new Set(
      texts
        .map((t) => t.trim())
        .filter((t) => !exact.has(t))
        .map((t) => t.toLowerCase()),
    ),
  ];
  for (const chunk of chunks(rest)) {
    const rows = await ctx.db
      .selectFrom(target.table)
      .select(['id', sql<string>`lower(${title})`.as('key')])
      .where(sql`lower(${title})`, 'in', chunk)
      .where(seen)
      .execute();
    group(
      rows.map((r) => ({ key: String(r.key), id: Number(r.id) })),
      folded,
    );
  }
  return (text) => exact.get(text) ?? folded.get(text.toLowerCase()) ?? [];
}

/** Users by email (as stored: normalised), or else by name ignoring case. */
async function usersByEmailOrName(ctx: OpsContext, texts: readonly string[]): Promise<Finder> {
  const byEmail = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const emails = texts.filter((t) => t.includes('@')).map((t) => normalizeEmail(t.trim()));
  const names = texts.filter((t) => !t.includes('@')).map((t) => t.trim().toLowerCase());
  for (const chunk of chunks(emails)) {
    const rows = await ctx.db.selectFrom(USER_TABLE).select(['id', 'email']).where('email', 'in', chunk).execute();
    group(
      rows.map((r) => ({ key: String(r.email), id: Number(r.id) })),
      byEmail,
    );
  }
  for (const chunk of chunks(names)) {
    const rows = await ctx.db
      .selectFrom(USER_TABLE)
      .select(['id', sql<string>`lower(name)`.as('key')])
      .where(sql`lower(name)`, 'in', chunk)
      .execute();
    group(
      rows.map((r) => ({ key: String(r.key), id: Number(r.id) })),
      byName,
    );
  }
  return (text) => (text.includes('@') ? (byEmail.get(normalizeEmail(text)) ?? []) : (byName.get(text.toLowerCase()) ?? []));
}
