import { authorize } from '../access/authorize';
import { NinefoldError } from '../errors/ninefold-error';
import { entityOf, type OpsContext } from './context';
import { recordTitle } from './references';
import type { ReferenceChoice } from './ops';
import type { Actor } from './types';

const DEFAULT_LIMIT = 200;

/**
 * Options for a reference or user field of `entityName`, ordered by title, within what the
 * actor may list of the referenced entity. Fetches one more than asked to know if it is all.
 */
export async function listChoices(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  fieldName: string,
  options: { q?: string; limit?: number } = {},
): Promise<{ choices: readonly ReferenceChoice[]; complete: boolean }> {
  const entity = entityOf(ctx.model, entityName);
  const field = entity.fieldsByName[fieldName];
  if (!field || (field.type !== 'reference' && field.type !== 'user')) {
    throw new NinefoldError('VALIDATION_FAILED', `"${fieldName}" is not a reference field of ${entity.label}.`);
  }
  const limit = Math.min(Math.max(options.limit ?? DEFAULT_LIMIT, 1), 500);
  const q = options.q?.trim().slice(0, 200);
  // Matched literally: % and _ are LIKE wildcards, escaped with the default escape character.
  const pattern = q ? `%${q.replace(/[%_\\]/g, '\\$&')}%` : null;

  if (field.type === 'user') {
    let query = ctx.db.selectFrom('nf_user').select(['id', 'name', 'email']).where('disabled_at', 'is', null);
    if (pattern) query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern)]));
    const rows = await query.orderBy('name').orderBy('id').limit(limit + 1).execute();
    return {
      choices: rows.slice(0, limit).map((u) => ({ id: u.id as number, title: `${u.name} <${u.email}>` })),
      complete: rows.length <= limit,
    };
  }

  const target = ctx.model.entitiesByName[field.referenceTo!];
  const scope = authorize(ctx.model, target, actor, 'list');
  const titleColumn = target.titleField ? target.fieldsByName[target.titleField].column : 'id';
  let query = ctx.db.selectFrom(target.table).select(['id', `${titleColumn} as title`]).where(scope);
  if (pattern && target.titleField) query = query.where(titleColumn, 'ilike', pattern);
  const rows = await query.orderBy(titleColumn).orderBy('id').limit(limit + 1).execute();
  return {
    choices: rows.slice(0, limit).map((r) => ({ id: r.id as number, title: recordTitle(target, { id: r.id, [target.titleField ?? 'id']: r.title }) })),
    complete: rows.length <= limit,
  };
}
