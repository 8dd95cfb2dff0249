import { rowScope } from '../access/authorize';
import { authorId } from '../access/visitor';
import type { Actor } from '../ground/actor';
import type { EntityModel } from '../spec/model';
import { declaredValue } from '../spec/own-names';
import type { OpsContext } from './context';
import type { RecordInput } from './types';

/**
 * The defaults of reference fields with `default: { own: 'account' }` for this actor: the id of
 * the referenced record whose user field is the actor, among those the actor may read (a default
 * the reference check would refuse is no default). A field the input gives, a visitor, or an
 * actor without such a record gets none, and `required` answers as usual. The first by id when
 * there are several.
 */
export async function ownRecordDefaults(
  ctx: OpsContext,
  entity: EntityModel,
  actor: Actor,
  input: RecordInput = {},
): Promise<Record<string, number>> {
  const userId = authorId(actor);
  const defaults: Record<string, number> = {};
  if (userId === null) return defaults;
  for (const field of entity.fields) {
    const d = field.defaultTo;
    if (d?.kind !== 'ownRecord' || (typeof input === 'object' && input !== null && Object.hasOwn(input, field.name))) continue;
    const target = declaredValue(ctx.model.entitiesByName, d.entity, 'entity');
    const scope = rowScope(ctx.model, target, actor, 'read');
    if (scope === null) continue;
    const owner = declaredValue(target.fieldsByName, d.userField, 'user field');
    const row = await ctx.db
      .selectFrom(target.table)
      .select('id')
      .where(owner.column, '=', userId)
      .where(scope.sql)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (row) defaults[field.name] = Number(row.id);
  }
  return defaults;
}
