import { rowScope } from '../access/authorize';
import type { FieldError } from '../errors/ninefold-error';
import type { ParsedValues } from '../rules/record-input';
import { holderRolesMessage, holdsFieldRole } from '../identity/people';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import { USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import type { Actor } from '../ground/actor';
import { referencedEntity } from './declared';
import { holdsUsers } from '../spec/join-fields';

/** Ids per `in (...)` list: well under PostgreSQL's 65,535 parameters of a statement. */
const IDS_PER_QUERY = 5000;

/**
 * The reference and user values of these rows that name nothing the actor may refer to: a user
 * that does not exist, a record that does not exist or lies outside the actor's read scope
 * (refused like a missing one, so that ids cannot be probed). One query per reference field and
 * thousands of ids, whatever the number of rows: a single create and an import of 100,000 rows
 * check the same way. Returns the field errors by row index; rows without any are absent.
 */
export async function missingReferences(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  rows: readonly ParsedValues[],
  actor: Actor,
): Promise<Map<number, FieldError[]>> {
  const errors = new Map<number, FieldError[]>();
  const fields = entity.fields.filter((f) => f.type === 'reference' || f.type === 'references' || holdsUsers(f));
  // One id, or a references field's set of them.
  const idsIn = (value: unknown): readonly number[] =>
    typeof value === 'number' ? [value] : Array.isArray(value) ? (value as readonly number[]) : [];
  await Promise.all(
    fields.map(async (field) => {
      const wanted = new Set<number>();
      for (const row of rows) for (const id of idsIn(row[field.name])) wanted.add(id);
      if (wanted.size === 0) return;
      const found = await existingIds(model, db, holdsUsers(field) ? field : referencedEntity(model, field), [...wanted], actor);
      // A user or users field with `roles` takes only users holding one: anyone else (or no one) is refused alike.
      const refusal = (id: number) =>
        field.holderRoles
          ? { field: field.name, code: 'user_role', message: holderRolesMessage(model, field) }
          : { field: field.name, code: 'unknown_reference', message: `${field.label}: no record #${id}.` };
      rows.forEach((row, index) => {
        // The first id refused names the problem; a set's other refusals would only repeat it.
        const id = idsIn(row[field.name]).find((one) => !found.has(one));
        if (id === undefined) return;
        const list = errors.get(index) ?? errors.set(index, []).get(index)!;
        list.push(refusal(id));
      });
    }),
  );
  // Fields in spec order within a row, whichever query answered first.
  const order = new Map(entity.fields.map((f, i) => [f.name, i]));
  for (const list of errors.values()) list.sort((a, b) => order.get(a.field)! - order.get(b.field)!);
  return errors;
}

/**
 * Which of the ids exist: users who may hold the user field `target` (any user when it has no
 * `roles`), or records of the entity `target` the actor may read.
 */
async function existingIds(
  model: AppModel,
  db: DynamicDatabase,
  target: EntityModel | FieldModel,
  ids: readonly number[],
  actor: Actor,
): Promise<Set<number>> {
  const found = new Set<number>();
  const entity = 'table' in target ? target : null;
  const scope = entity ? rowScope(model, entity, actor, 'read') : null;
  if (entity && !scope) return found;
  const holds = entity ? null : holdsFieldRole(target as FieldModel);
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const chunk = ids.slice(start, start + IDS_PER_QUERY);
    const users = db.selectFrom(USER_TABLE).select('id').where('id', 'in', chunk);
    const rows = entity
      ? await db.selectFrom(entity.table).select('id').where('id', 'in', chunk).where(scope!.sql).execute()
      : await (holds ? users.where(holds) : users).execute();
    for (const row of rows) found.add(Number(row.id));
  }
  return found;
}
