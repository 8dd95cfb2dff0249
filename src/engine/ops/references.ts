import { rowScope } from '../access/authorize';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { cachedRead } from '../store/write-clock';
import { fallbackTitle, titleText } from './record-title';
import { titleSql } from './title-sql';
import type { ReferenceTitles } from './types';
import type { Actor } from '../ground/actor';
import { declared } from './declared';
import { holdsUsers } from '../spec/join-fields';
import { FILE_TABLE } from '../files/file-tables';

/**
 * Runs a title lookup, served from memory while this process has written nothing since the
 * same lookup ran (store/write-clock.ts): a list shown again asks for the same titles. Keyed by
 * the statement itself, which carries the ids and the actor's read scope.
 */
function titleRows(
  db: DynamicDatabase,
  query: { compile(): { sql: string; parameters: readonly unknown[] }; execute(): Promise<Record<string, unknown>[]> },
) {
  const { sql, parameters } = query.compile();
  return cachedRead(db, `titles\u0000${sql}\u0000${JSON.stringify(parameters)}`, () => query.execute());
}

/** Ids in order, so that the same set of ids is the same lookup. */
const sortedIds = (ids: Set<number>) => [...ids].sort((a, b) => a - b);

/**
 * Titles of the records and users the given (already redacted) records refer to: one query per
 * referenced entity and one for users, whatever the number of rows (no N+1). Only records the
 * actor may read get a title (the target's read scope is part of the query), by the target's title
 * rule (title-sql.ts: one titled by a reference reads as the record it refers to); a reference to
 * any other record gets none, and the UI shows just its id.
 */
export async function loadReferenceTitles(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  records: readonly Readonly<Record<string, unknown>>[],
): Promise<ReferenceTitles> {
  const titles: Record<string, Record<number, string>> = {};
  if (records.length === 0) return titles;
  const present = (name: string) => records.some((r) => Object.hasOwn(r, name));

  const userFields = [...entity.fields.filter((f) => holdsUsers(f) && present(f.name)).map((f) => f.name), 'createdBy', 'updatedBy'];
  const userIds = new Set<number>();
  for (const r of records)
    for (const f of userFields) {
      const value = r[f];
      if (typeof value === 'number') userIds.add(value);
      // A users field: every member of its set.
      else if (Array.isArray(value)) for (const id of value as readonly number[]) userIds.add(id);
    }

  const byEntity = new Map<string, { fields: string[]; ids: Set<number> }>();
  for (const f of entity.fields) {
    if ((f.type !== 'reference' && f.type !== 'references') || !f.referenceTo || !present(f.name)) continue;
    const group = byEntity.get(f.referenceTo) ?? { fields: [], ids: new Set<number>() };
    group.fields.push(f.name);
    for (const r of records) {
      const value = r[f.name];
      if (typeof value === 'number') group.ids.add(value);
      // A references field: every id of its set (ops/reference-sets.ts keeps only those titled here).
      else if (Array.isArray(value)) for (const id of value as readonly number[]) group.ids.add(id);
    }
    byEntity.set(f.referenceTo, group);
  }

  const lookups: Promise<void>[] = [];
  if (userIds.size > 0) {
    lookups.push(
      titleRows(db, db.selectFrom('nf_user').select(['id', 'name']).where('id', 'in', sortedIds(userIds))).then((rows) => {
        // Names only, never the email: the viewer may be a customer (engine/identity/people.ts).
        const names = Object.fromEntries(rows.map((u) => [u.id as number, (u.name as string) || `User #${u.id}`]));
        for (const f of userFields) titles[f] = names;
      }),
    );
  }
  for (const [target, group] of byEntity) {
    const targetEntity = declared(model.entitiesByName, target, 'entity');
    const scope = rowScope(model, targetEntity, actor, 'read');
    if (group.ids.size === 0 || !scope) {
      for (const f of group.fields) titles[f] = {};
      continue;
    }
    const title = titleSql(model, targetEntity, actor, targetEntity.table);
    lookups.push(
      titleRows(
        db,
        db
          .selectFrom(targetEntity.table)
          .select(['id', title.text.as('title')])
          .where('id', 'in', sortedIds(group.ids))
          .where(scope.sql),
      ).then((rows) => {
        const map = Object.fromEntries(
          rows.map((row) => [
            row.id as number,
            titleText(String(row.title), title.markdown) || fallbackTitle(targetEntity, row.id as number),
          ]),
        );
        for (const f of group.fields) titles[f] = map;
      }),
    );
  }
  // A file's title is its name; only the record's own files are asked for (ids from its readable fields).
  const fileFields = entity.fields.filter((f) => f.files && present(f.name));
  const fileIds = new Set(
    fileFields.flatMap((f) => records.flatMap((r) => (Array.isArray(r[f.name]) ? (r[f.name] as readonly number[]) : []))),
  );
  if (fileIds.size > 0) {
    lookups.push(
      db
        .selectFrom(FILE_TABLE)
        .select(['id', 'name'])
        .where('id', 'in', sortedIds(fileIds))
        .execute()
        .then((rows) => {
          const names = Object.fromEntries(rows.map((row) => [Number(row.id), String(row.name)]));
          for (const f of fileFields) titles[f.name] = names;
        }),
    );
  } else for (const f of fileFields) titles[f.name] = {};
  await Promise.all(lookups);
  return titles;
}
