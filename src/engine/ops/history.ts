import { sql } from 'kysely';
import { writeOutbox } from '../notify/outbox';
import { rowScope } from '../access/authorize';
import { fieldSight } from '../access/field-sight';
import { authorId } from '../access/visitor';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import type { EntityModel } from '../spec/model';
import { AUDIT_TABLE, USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import { entityOf, type OpsContext } from './context';
import { isRecordId } from './record-id';
import { readableTargetIds } from './reference-sets';
import { inSentence } from '../spec/naming';
import { loadReferenceTitles } from './references';
import type { FieldChange, HistoryEntry, HistoryPage, ReferenceTitles } from './types';
import type { RecordValue } from '../ground/record-value';
import type { Actor } from '../ground/actor';
import { fileNamesOf } from '../files/file-names';
import { fileFields } from '../spec/file-fields';

/*
 * The history of records: one row in nf_audit per create, update, transition and delete,
 * written by ops in the transaction of the change itself (a change without its history, or the
 * reverse, cannot be committed). Stored with every field changed; filtered per viewer on read.
 */

type Snapshot = Readonly<Record<string, unknown>>;

/** What the audit row's `changes` holds: per field [from, to], and for a transition its facts. */
interface StoredChanges {
  readonly fields: Record<string, [unknown, unknown]>;
  /**
   * The names of the files the file fields' changes name, by id: a file taken off is deleted with
   * its row, so its entry keeps its name ("removed report.pdf").
   */
  readonly fileNames?: Record<string, string>;
  readonly transition?: {
    readonly name: string;
    readonly from: string;
    readonly to: string;
    readonly comment: string | null;
    /** Taken by the scheduler when its time came (an automatic transition), not by a user. */
    readonly automatic?: true;
  };
  /** For a change made as an effect of a write on another record: that write. */
  readonly cause?: WriteCause;
}

/** The write on another record whose effect a change is: a transition's name, or 'create'. */
export interface WriteCause {
  readonly entity: string;
  readonly recordId: number;
  readonly action: string;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  // A references field's sets, both ascending: the same ids in the same places.
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
  return (a ?? null) === (b ?? null);
}

/** The declared fields whose value differs between two versions of a record (null for "none"). */
export function fieldDiff(entity: EntityModel, before: Snapshot | null, after: Snapshot | null): Record<string, [unknown, unknown]> {
  const diff: Record<string, [unknown, unknown]> = {};
  for (const field of entity.fields) {
    // A derived value moves with other records, not with this one's edits: its history leaves it out.
    if (field.derived) continue;
    const from = before?.[field.name] ?? null;
    const to = after?.[field.name] ?? null;
    if (!same(from, to)) diff[field.name] = [from, to];
  }
  return diff;
}

export interface HistoryEvent {
  readonly action: 'create' | 'update' | 'transition' | 'delete';
  readonly recordId: number;
  readonly before: Snapshot | null;
  readonly after: Snapshot | null;
  readonly transition?: StoredChanges['transition'];
  readonly cause?: WriteCause;
  /** Names of the files `before` held, read before the write deleted those it took off (write-kit.ts). */
  readonly fileNames?: Readonly<Record<number, string>>;
}

/** Records one event; call inside the transaction that makes the change. */
export async function writeHistory(trx: DynamicDatabase, entity: EntityModel, actor: Actor, event: HistoryEvent): Promise<void> {
  await writeHistories(trx, entity, actor, [event]);
}

/** Audit rows per INSERT: a few parameters each, far under PostgreSQL's 65,535 per statement. */
const EVENTS_PER_INSERT = 2000;

/** Records many events of one actor in as few statements as possible (createMany's batches). */
export async function writeHistories(
  trx: DynamicDatabase,
  entity: EntityModel,
  actor: Actor,
  events: readonly HistoryEvent[],
): Promise<void> {
  const files = fileFields(entity);
  for (let start = 0; start < events.length; start += EVENTS_PER_INSERT) {
    const batch = events
      .slice(start, start + EVENTS_PER_INSERT)
      .map((event) => ({ event, fields: fieldDiff(entity, event.before, event.after) }));
    // The files each change names: those it took off were named by the caller, the others are still here (one query).
    const named = (fields: Record<string, [unknown, unknown]>) =>
      files.flatMap((field) => (fields[field.name] ?? []).flatMap((value) => (Array.isArray(value) ? (value as number[]) : [])));
    const known = await fileNamesOf(
      trx,
      batch.flatMap(({ event, fields }) => named(fields).filter((id) => event.fileNames?.[id] === undefined)),
    );
    const rows = batch.map(({ event, fields }) => {
      const names = Object.fromEntries(named(fields).map((id) => [id, event.fileNames?.[id] ?? known[id] ?? `#${id}`]));
      const changes: StoredChanges = {
        fields,
        ...(Object.keys(names).length > 0 ? { fileNames: names } : {}),
        ...(event.transition ? { transition: event.transition } : {}),
        ...(event.cause ? { cause: event.cause } : {}),
      };
      return {
        actor_id: authorId(actor),
        entity: entity.name,
        record_id: event.recordId,
        action: event.transition ? event.transition.name : event.action,
        changes: sql`${JSON.stringify(changes)}::jsonb`,
      };
    });
    await trx.insertInto(AUDIT_TABLE).values(rows).execute();
  }
  // Notifications and webhook events matched in the change's own transaction (notify/outbox.ts); none declared, nothing done.
  if (entity.notifications.length > 0 || entity.webhookEvents.length > 0) {
    const changes = events.map((event) => ({ ...event, changed: Object.keys(fieldDiff(entity, event.before, event.after)) }));
    await writeOutbox(trx, entity, actor, changes);
  }
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

function revive(entity: EntityModel, name: string, value: unknown): RecordValue {
  if (value === null || value === undefined) return null;
  if (entity.fieldsByName[name]?.type === 'datetime' && typeof value === 'string') return new Date(value);
  return value as RecordValue;
}

function parseCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const id = /^\d{1,15}$/.test(cursor) ? Number(cursor) : NaN;
  if (!isRecordId(id))
    throw new NinefoldError('VALIDATION_FAILED', 'The history cursor is not valid. Start again from the newest entries.', {
      fieldErrors: [{ field: 'cursor', code: 'invalid_cursor', message: 'The history cursor is not valid.' }],
    });
  return id;
}

/**
 * A record's history for one viewer, newest first: NOT_FOUND unless the record is in the
 * viewer's read scope; changes of fields the viewer may not read are left out, and an update
 * that changed only such fields is left out entirely (even its existence would tell something).
 * Who made each change follows the field rules of the author columns (actorHidden).
 */
export async function readHistory(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  id: number,
  query: { cursor?: string; limit?: number } = {},
): Promise<HistoryPage> {
  const entity = entityOf(ctx.model, entityName);
  if (!isRecordId(id)) throw notFound(inSentence(entity.label));
  const scope = rowScope(ctx.model, entity, actor, 'read');
  const sight = fieldSight(ctx.model, entity, actor);
  const visible =
    scope &&
    (await ctx.db.selectFrom(entity.table).select('id').select(sight.columns).where('id', '=', id).where(scope.sql).executeTakeFirst());
  if (!visible) throw notFound(inSentence(entity.label));
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT, 1), MAX_LIMIT);
  const before = parseCursor(query.cursor);

  let rows = ctx.db
    .selectFrom(`${AUDIT_TABLE} as a`)
    .leftJoin(`${USER_TABLE} as u`, 'u.id', 'a.actor_id')
    .select(['a.id as id', 'a.at as at', 'a.actor_id as actor_id', 'u.name as actor_name', 'a.action as action', 'a.changes as changes'])
    .where('a.entity', '=', entity.name)
    .where('a.record_id', '=', id)
    .orderBy('a.id', 'desc')
    .limit(limit + 1);
  if (before !== undefined) rows = rows.where('a.id', '<', before);
  const found = await rows.execute();

  // The fields the grants that let the actor see this record read: the history tells no more than the record.
  const readable = sight.readableOn(visible);
  const entries: HistoryEntry[] = [];
  const page = found
    .slice(0, limit)
    .map((row) => ({ row, stored: (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as StoredChanges }));
  // A set's change names only the records the viewer may read; one that changed only others is left out.
  const targets = await readableTargetIds(
    ctx.model,
    ctx.db,
    actor,
    entity,
    page.map((p) => p.stored.fields ?? {}),
  );
  for (const { row, stored } of page) {
    const changes: Record<string, FieldChange> = {};
    for (const [name, [from, to]] of Object.entries(stored.fields ?? {})) {
      if (!readable.has(name)) continue;
      const seen = targets.get(name);
      if (!seen) changes[name] = { from: revive(entity, name, from), to: revive(entity, name, to) };
      else {
        const visible = (ids: unknown) => (Array.isArray(ids) ? (ids as number[]).filter((id) => seen.has(id)) : []);
        const [before, after] = [visible(from), visible(to)];
        if (!same(before, after)) changes[name] = { from: before, to: after };
      }
    }
    const action = stored.transition ? 'transition' : (row.action as HistoryEntry['action']);
    if (action === 'update' && Object.keys(changes).length === 0) continue;
    const actorId = row.actor_id === null ? null : Number(row.actor_id);
    // Who made it is who created the record, or who changed it: shown where the viewer may read that column.
    const hidden = !readable.has(action === 'create' ? 'createdBy' : 'updatedBy');
    entries.push({
      id: Number(row.id),
      at: row.at as Date,
      // Never the email: the viewer may be a customer, who has no business with staff addresses.
      actor: actorId === null || hidden ? null : { id: actorId, name: String(row.actor_name || `User #${actorId}`) },
      ...(hidden ? { actorHidden: true as const } : {}),
      action,
      ...(stored.transition ? { transition: { ...stored.transition, label: transitionLabel(entity, stored.transition.name) } } : {}),
      ...(stored.cause && mayReadCause(ctx, actor, stored.cause) ? { cause: causeOf(ctx, stored.cause) } : {}),
      changes,
    });
  }
  const last = found.length > limit ? found[limit - 1] : undefined;
  const fileNames = Object.assign({}, ...page.map((p) => p.stored.fileNames ?? {})) as Record<string, string>;
  return { entries, references: await namedTitles(ctx, actor, entity, entries, fileNames), nextCursor: last ? String(last.id) : null };
}

/**
 * Titles of the records and users the entries' changes name, past values included, loaded as a
 * record's own references are (one query per referenced entity and one for users, within what
 * the viewer may read), never a query per entry.
 */
async function namedTitles(
  ctx: OpsContext,
  actor: Actor,
  entity: EntityModel,
  entries: readonly HistoryEntry[],
  /** The files the entries name, as they kept them (deleted files too). */
  fileNames: Readonly<Record<string, string>>,
): Promise<ReferenceTitles> {
  const values: Record<string, unknown>[] = [];
  for (const entry of entries) {
    for (const [name, change] of Object.entries(entry.changes)) {
      const type = entity.fieldsByName[name]?.type;
      if (type !== 'reference' && type !== 'references' && type !== 'user' && type !== 'users') continue;
      for (const value of [change.from, change.to]) if (value !== null) values.push({ [name]: value });
    }
  }
  const titles = await loadReferenceTitles(ctx.model, ctx.db, actor, entity, values);
  const files = fileFields(entity).filter((field) => entries.some((entry) => Object.hasOwn(entry.changes, field.name)));
  return { ...titles, ...Object.fromEntries(files.map((field) => [field.name, fileNames])) };
}

/** The cause is named to viewers who may read records of its entity at all: to others the change stands alone. */
function mayReadCause(ctx: OpsContext, actor: Actor, cause: WriteCause): boolean {
  const entity = ctx.model.entitiesByName[cause.entity];
  return entity !== undefined && rowScope(ctx.model, entity, actor, 'read') !== null;
}

/** The cause in words: "by transition Check out of Loan #12", "by creating Loan #12". */
function causeOf(ctx: OpsContext, cause: WriteCause): NonNullable<HistoryEntry['cause']> {
  const entity = ctx.model.entitiesByName[cause.entity];
  const label = entity?.label ?? cause.entity;
  const text =
    cause.action === 'create'
      ? `by creating ${label} #${cause.recordId}`
      : `by transition ${entity ? transitionLabel(entity, cause.action) : cause.action} of ${label} #${cause.recordId}`;
  return { entity: cause.entity, recordId: cause.recordId, action: cause.action, text };
}

function transitionLabel(entity: EntityModel, name: string): string {
  return entity.workflow?.transitions.find((t) => t.name === name)?.label ?? name;
}
