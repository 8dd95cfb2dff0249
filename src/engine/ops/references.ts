import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import type { RecordData, ReferenceTitles } from './types';

const TITLE_LENGTH = 80;

export function recordTitle(entity: EntityModel, record: Record<string, unknown>): string {
  const value = entity.titleField ? record[entity.titleField] : null;
  if (value === null || value === undefined || value === '') return `${entity.label} #${record.id}`;
  const text = String(value).replace(/\s+/g, ' ').trim();
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text;
}

/**
 * Titles of every record and user the given records refer to: one query per referenced
 * entity and one for users, whatever the number of rows (no N+1).
 */
export async function loadReferenceTitles(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  records: readonly RecordData[],
): Promise<ReferenceTitles> {
  const titles: Record<string, Record<number, string>> = {};
  if (records.length === 0) return titles;

  const userFields = [...entity.fields.filter((f) => f.type === 'user').map((f) => f.name), 'createdBy', 'updatedBy'];
  const userIds = new Set<number>();
  for (const r of records) for (const f of userFields) if (typeof r[f] === 'number') userIds.add(r[f] as number);

  const byEntity = new Map<string, { fields: string[]; ids: Set<number> }>();
  for (const f of entity.fields) {
    if (f.type !== 'reference' || !f.referenceTo) continue;
    const group = byEntity.get(f.referenceTo) ?? { fields: [], ids: new Set<number>() };
    group.fields.push(f.name);
    for (const r of records) if (typeof r[f.name] === 'number') group.ids.add(r[f.name] as number);
    byEntity.set(f.referenceTo, group);
  }

  const lookups: Promise<void>[] = [];
  if (userIds.size > 0) {
    lookups.push(
      db
        .selectFrom('nf_user')
        .select(['id', 'name', 'email'])
        .where('id', 'in', [...userIds])
        .execute()
        .then((rows) => {
          const names = Object.fromEntries(rows.map((u) => [u.id as number, (u.name as string) || (u.email as string)]));
          for (const f of userFields) titles[f] = names;
        }),
    );
  }
  for (const [target, group] of byEntity) {
    const targetEntity = model.entitiesByName[target];
    if (group.ids.size === 0) {
      for (const f of group.fields) titles[f] = {};
      continue;
    }
    const titleColumn = targetEntity.titleField ? targetEntity.fieldsByName[targetEntity.titleField].column : 'id';
    lookups.push(
      db
        .selectFrom(targetEntity.table)
        .select(['id', `${titleColumn} as title`])
        .where('id', 'in', [...group.ids])
        .execute()
        .then((rows) => {
          const map = Object.fromEntries(rows.map((row) => [row.id as number, recordTitle(targetEntity, { id: row.id, [targetEntity.titleField ?? 'id']: row.title })]));
          for (const f of group.fields) titles[f] = map;
        }),
    );
  }
  await Promise.all(lookups);
  return titles;
}
