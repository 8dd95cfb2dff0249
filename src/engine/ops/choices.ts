import { authorizeScope } from '../access/authorize';
import { readableFields, writableFields } from '../access/fields';
import { forbiddenField } from '../access/refusal';
import { NinefoldError } from '../errors/ninefold-error';
import { holdsFieldRole, mayManageUsers, personChoiceTitle } from '../identity/people';
import { cachedRead } from '../store/write-clock';
import { entityOf, type OpsContext } from './context';
import { titleText, fallbackTitle } from './record-title';
import { titleSql } from './title-sql';
import type { EntityModel, FieldModel } from '../spec/model';
import type { Actor } from '../ground/actor';
import { referencedEntity } from './declared';
import { holdsUsers } from '../spec/join-fields';

/** A record (or user) a reference field may point at, as a form offers it. */
export interface ReferenceChoice {
  readonly id: number;
  readonly title: string;
}

/** What a picker asks: the text typed, how many at most, and the form's value of the field's `within`. */
export interface ChoicesQuery {
  readonly q?: string;
  readonly limit?: number;
  readonly within?: number | null;
}

const DEFAULT_LIMIT = 200;

/**
 * Runs a choices query, served from memory while this process has written nothing since the
 * same query ran (see store/write-clock.ts): every list page asks for the same filter options.
 * The key is the statement itself, with the actor's row scope in it, so access is decided
 * above on every call and only identical questions share an answer.
 */
function rowsOf(
  ctx: OpsContext,
  query: { compile(): { sql: string; parameters: readonly unknown[] }; execute(): Promise<Record<string, unknown>[]> },
) {
  const { sql, parameters } = query.compile();
  return cachedRead(ctx.db, `choices\u0000${sql}\u0000${JSON.stringify(parameters)}`, () => query.execute());
}

/**
 * A reference or user field whose values the actor may name (one they may read or write: a
 * filter or a form field); VALIDATION_FAILED for any other field, FORBIDDEN_FIELD for one the
 * actor may neither read nor write.
 */
export function choosableField(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  fieldName: string,
): { entity: EntityModel; field: FieldModel } {
  const entity = entityOf(ctx.model, entityName);
  const field = Object.hasOwn(entity.fieldsByName, fieldName) ? entity.fieldsByName[fieldName] : undefined;
  if (!field || (field.type !== 'reference' && field.type !== 'references' && !holdsUsers(field))) {
    throw new NinefoldError('VALIDATION_FAILED', `"${fieldName}" is not a reference field of ${entity.label}.`);
  }
  const usable = [...readableFields(entity, actor), ...writableFields(entity, actor, 'create'), ...writableFields(entity, actor, 'update')];
  if (!usable.includes(field.name)) {
    throw forbiddenField(actor, entity, 'choices', [
      { field: field.name, code: 'forbidden_field', message: `You cannot choose ${field.label}.` },
    ]);
  }
  return { entity, field };
}

/**
 * Options for a reference or user field of `entityName`, ordered by title, within what the
 * actor may list of the referenced entity. The field must be one the actor may read or write
 * (a filter or a form field). Fetches one more than asked to know if it is all.
 */
export async function listChoices(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  fieldName: string,
  options: ChoicesQuery = {},
): Promise<{ choices: readonly ReferenceChoice[]; complete: boolean }> {
  const { field } = choosableField(ctx, actor, entityName, fieldName);
  const limit = Math.min(Math.max(options.limit ?? DEFAULT_LIMIT, 1), 500);
  const q = options.q?.trim().slice(0, 200);
  // Matched literally: % and _ are LIKE wildcards, escaped with the default escape character.
  const pattern = q ? `%${q.replace(/[%_\\]/g, '\\$&')}%` : null;

  if (holdsUsers(field)) {
    // Active users who may hold the field (its `roles`). Emails are shown, and searched, only for
    // those who manage users: to anyone else a picker would be a staff directory.
    const withEmail = mayManageUsers(actor);
    let query = ctx.db.selectFrom('nf_user').select(['id', 'name', 'email']).where('disabled_at', 'is', null);
    const holds = holdsFieldRole(field);
    if (holds) query = query.where(holds);
    if (pattern)
      query = query.where((eb) =>
        withEmail ? eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern)]) : eb('name', 'ilike', pattern),
      );
    const rows = await rowsOf(
      ctx,
      query
        .orderBy('name')
        .orderBy('id')
        .limit(limit + 1),
    );
    const named = rows.slice(0, limit).map((u) => ({ id: u.id as number, name: u.name as string, email: u.email as string }));
    // Namesakes are told apart by their id where the email is not shown ("Ann Lee (#12)").
    const counts = new Map<string, number>();
    for (const u of named) counts.set(u.name, (counts.get(u.name) ?? 0) + 1);
    return {
      choices: named.map((u) => ({
        id: u.id,
        title: !withEmail && counts.get(u.name)! > 1 ? `${u.name} (#${u.id})` : personChoiceTitle(actor, u),
      })),
      complete: rows.length <= limit,
    };
  }

  const target = referencedEntity(ctx.model, field);
  const scope = authorizeScope(ctx.model, target, actor, 'list');
  // By title as this actor sees it (a title referring to another record reads as that one's, or
  // "<Label> #<id>" where they may not see it), searched as text: an invoice's number, a date.
  const title = titleSql(ctx.model, target, actor, target.table);
  let query = ctx.db
    .selectFrom(target.table)
    .select(['id', title.text.as('title')])
    .where(scope.sql);
  if (pattern) query = query.where(title.text, 'ilike', pattern);
  // Only records sharing the form's `within` (the deal's company's contacts); none given: any (ops/within.ts checks the write).
  if (field.within && typeof options.within === 'number')
    query = query.where(target.fieldsByName[field.within]!.column, '=', options.within);
  const rows = await rowsOf(
    ctx,
    query
      .orderBy(title.order)
      .orderBy('id')
      .limit(limit + 1),
  );
  return {
    choices: rows
      .slice(0, limit)
      .map((r) => ({ id: r.id as number, title: titleText(String(r.title), title.markdown) || fallbackTitle(target, r.id as number) })),
    complete: rows.length <= limit,
  };
}
