import { rowScope } from '../access/authorize';
import { NinefoldError } from '../errors/ninefold-error';
import type { ParsedValues } from '../rules/record-input';
import { JOIN_RECORD, JOIN_TARGET, joinFields, MAX_REFERENCES } from '../spec/join-fields';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { loadReferenceTitles } from './references';
import type { RecordData, ReferenceTitles } from './types';
import type { Actor } from '../ground/actor';
import { referencedEntity } from './declared';
import { claimFiles } from '../files/attach';

/*
 * The pairs of references fields (many-to-many), kept in one join table per field. Writes go
 * through here in the transaction of the record's own write, which also bumps the record's
 * version: a change of pairs is a change of the record (optimistic concurrency, history and the
 * live feed's triggers all see it). Reads are a subquery of the record's own statement
 * (records.ts), then cut down here to the referenced records the viewer may read.
 */

/** Pairs per INSERT: two parameters each, far under PostgreSQL's 65,535 per statement. */
const PAIRS_PER_INSERT = 10_000;

type Ids = readonly number[];

function idsOf(value: unknown): Ids {
  return Array.isArray(value) ? (value as Ids) : [];
}

/** The sets among parsed values, as a new record holds them once its pairs are written. */
export function givenSets(entity: EntityModel, values: ParsedValues): Record<string, Ids> {
  return Object.fromEntries(joinFields(entity).map((f) => [f.name, idsOf(values[f.name])]));
}

/** Writes the pairs of records just inserted (create, createMany): one INSERT per field and batch. */
export async function insertReferenceSets(
  trx: DynamicDatabase,
  entity: EntityModel,
  actor: Actor,
  records: readonly { readonly id: number; readonly values: ParsedValues }[],
): Promise<void> {
  for (const field of joinFields(entity)) {
    // Files are the actor's staged uploads, attached to the record here (engine/files/attach.ts).
    if (field.files) for (const r of records) await claimFiles(trx, actor, entity, field, r.id, idsOf(r.values[field.name]));
    const pairs = records.flatMap((r) => idsOf(r.values[field.name]).map((target) => ({ [JOIN_RECORD]: r.id, [JOIN_TARGET]: target })));
    for (let start = 0; start < pairs.length; start += PAIRS_PER_INSERT) {
      await trx
        .insertInto(field.joinTable)
        .values(pairs.slice(start, start + PAIRS_PER_INSERT))
        .execute();
    }
  }
}

/**
 * Replaces the sets given in `changes` on a record locked by this transaction, and returns the
 * sets as stored after. The actor replaces what they can see: referenced records outside their
 * read scope (which they were never shown) stay, so that saving a form never drops what someone
 * else attached. The set after must still fit the field's `maxItems`.
 */
export async function replaceReferenceSets(
  model: AppModel,
  trx: DynamicDatabase,
  entity: EntityModel,
  actor: Actor,
  current: RecordData,
  changes: Readonly<Record<string, unknown>>,
): Promise<Record<string, Ids>> {
  const after: Record<string, Ids> = {};
  for (const field of joinFields(entity)) {
    if (!Object.hasOwn(changes, field.name)) continue;
    const wanted = idsOf(changes[field.name]);
    const before = idsOf(current[field.name]);
    const gone = before.filter((id) => !wanted.includes(id));
    // Every viewer sees every member of a set of users (names, as a user field shows them), and
    // every file of a field they may read (the record's own).
    const unseen = new Set(field.type === 'users' || field.files ? [] : gone);
    if (unseen.size > 0) {
      const target = referencedEntity(model, field);
      const scope = rowScope(model, target, actor, 'read');
      const seen = scope ? await trx.selectFrom(target.table).select('id').where('id', 'in', gone).where(scope.sql).execute() : [];
      for (const row of seen) unseen.delete(Number(row.id));
    }
    const removed = gone.filter((id) => !unseen.has(id));
    if (removed.length > 0)
      await trx.deleteFrom(field.joinTable).where(JOIN_RECORD, '=', current.id).where(JOIN_TARGET, 'in', removed).execute();
    const added = wanted.filter((id) => !before.includes(id));
    // A file taken off is deleted with its pair (engine/files/pair-triggers.ts); one added must be the actor's upload.
    if (field.files) await claimFiles(trx, actor, entity, field, current.id, added);
    if (added.length > 0)
      await trx
        .insertInto(field.joinTable)
        .values(added.map((target) => ({ [JOIN_RECORD]: current.id, [JOIN_TARGET]: target })))
        .execute();
    const stored = [...new Set([...wanted, ...unseen])].sort((a, b) => a - b);
    const max = field.maxItems ?? MAX_REFERENCES;
    if (stored.length > max) {
      const message = `${field.label} can hold at most ${max}.`;
      throw new NinefoldError('VALIDATION_FAILED', message, { fieldErrors: [{ field: field.name, code: 'too_big', message }] });
    }
    after[field.name] = stored;
  }
  return after;
}

/**
 * The records with each references field cut down to the ids that have a title, i.e. to the
 * referenced records the viewer may read (loadReferenceTitles queries them in their read scope).
 */
export function hideUnreadableTargets(entity: EntityModel, records: readonly RecordData[], titles: ReferenceTitles): RecordData[] {
  const fields = joinFields(entity).filter((f) => records.some((r) => Object.hasOwn(r, f.name)));
  if (fields.length === 0) return [...records];
  return records.map((record) => {
    const visible: Record<string, Ids> = {};
    for (const field of fields) {
      if (!Object.hasOwn(record, field.name)) continue;
      const known = titles[field.name] ?? {};
      visible[field.name] = idsOf(record[field.name]).filter((id) => Object.hasOwn(known, id));
    }
    return { ...record, ...visible };
  });
}

/**
 * Of the ids the references fields held in some history entries, those the viewer may read, by
 * field: one query per field for a whole page of entries.
 */
export async function readableTargetIds(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  changes: readonly Readonly<Record<string, readonly [unknown, unknown]>>[],
): Promise<Map<string, Set<number>>> {
  const readable = new Map<string, Set<number>>();
  for (const field of joinFields(entity)) {
    const ids = new Set(
      changes.flatMap((c) => {
        const change = c[field.name];
        return change ? [...idsOf(change[0]), ...idsOf(change[1])] : [];
      }),
    );
    // Users are seen by every viewer (names only), as a user field's are; a record's files by whoever reads the field.
    if (field.type === 'users' || field.files) {
      readable.set(field.name, ids);
      continue;
    }
    const target = field.referenceTo ? model.entitiesByName[field.referenceTo] : undefined;
    const scope = target ? rowScope(model, target, actor, 'read') : null;
    const found =
      ids.size > 0 && target && scope
        ? await db
            .selectFrom(target.table)
            .select('id')
            .where('id', 'in', [...ids])
            .where(scope.sql)
            .execute()
        : [];
    readable.set(field.name, new Set(found.map((r) => Number(r.id))));
  }
  return readable;
}

/** Records as a viewer gets them, with the titles of what they refer to (one query per target). */
export async function withReferenceTitles(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  records: readonly RecordData[],
): Promise<{ records: RecordData[]; references: ReferenceTitles }> {
  const references = await loadReferenceTitles(model, db, actor, entity, records);
  return { records: hideUnreadableTargets(entity, records, references), references };
}

/**
 * A record returned by a write, its sets cut down to what the actor may read: nothing to ask
 * the database when the entity has no references field.
 */
export async function visibleSets(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  record: RecordData,
): Promise<RecordData> {
  if (!joinFields(entity).some((f) => Object.hasOwn(record, f.name))) return record;
  const [visible] = (await withReferenceTitles(model, db, actor, entity, [record])).records;
  if (!visible) throw new Error('withReferenceTitles gives back each record it is given');
  return visible;
}
