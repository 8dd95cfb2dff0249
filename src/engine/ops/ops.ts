import type { ChoicesQuery, ReferenceChoice } from './choices';
import type { EntityAccess } from '../access/entity-access';
import type { DayCounts, DayQuery, GroupQuery, GroupTotals } from './aggregate';
import type { ChangedRecords } from './readable';
import type { CreateManyOptions, CreateManyResult } from './create-many';
import type { LookupResult } from './lookup';
import type {
  BoardPage,
  BoardQuery,
  BulkDeleteResult,
  BulkTransitionResult,
  BulkUpdateResult,
  CreateOptions,
  HistoryPage,
  ListCount,
  ListPage,
  ListQuery,
  QueryUse,
  RecordData,
  RecordInput,
  RecordView,
  SearchPage,
  TransitionRequest,
} from './types';
import type { Actor } from '../ground/actor';

export type { EntityAccess } from '../access/entity-access';
export type { DayCounts, DayQuery, GroupQuery, GroupTotals } from './aggregate';
export type { ChangedRecords } from './readable';
export type { CreateManyOptions, CreateManyProgress, CreateManyResult, RowRefusal } from './create-many';
export type { LookupResult } from './lookup';

/**
 * Every read and write of a record goes through these. Each call checks access for `actor`;
 * each write runs in one transaction (validate → access → workflow → write with version → audit).
 */
export interface Ops {
  /**
   * What the actor may do with the entity: actions, transitions, readable and writable fields.
   * For the doors to know what to offer; every other operation checks the same rules itself.
   */
  access(actor: Actor, entity: string): EntityAccess;
  /**
   * Whether listing the entity by these fields and condition would be allowed (no FORBIDDEN or
   * FORBIDDEN_FIELD): for a door to leave out what is not for the actor without asking and being
   * refused. Decides nothing: the query itself is checked again.
   */
  mayQuery(actor: Actor, entity: string, query: QueryUse): boolean;
  /**
   * Records never carry a field the actor may not read (the property is absent); filtering,
   * sorting or searching by one is FORBIDDEN_FIELD.
   */
  list(actor: Actor, entity: string, query?: ListQuery): Promise<ListPage>;
  /**
   * How many records the list with these filters, search and condition holds for the actor
   * (sort, cursor and limit are ignored), counting at most `cap` (default 10,000) so that the
   * cost stays bounded: beyond it, `more` is true — unless the running totals keep the number
   * (no search or condition, at most one filter, on a tallied field): then it is exact.
   */
  count(actor: Actor, entity: string, query?: ListQuery, cap?: number): Promise<ListCount>;
  /**
   * The records matching a search (the list's `q`: same words, same checks), best first: the
   * title is what was typed, then starts with it, then matches the words itself, then the other
   * searched fields do; ties to the most recently changed. The first `limit` only (a palette's,
   * a picker's), ranked among the most recent matches (SEARCH_RANK_WINDOW) so the cost stays bounded.
   */
  search(actor: Actor, entity: string, q: string, options?: { limit?: number }): Promise<SearchPage>;
  /**
   * Records (or the sum of a number field) per value of a field, over every record the actor
   * may list (scope and `where` applied); FORBIDDEN_FIELD for a field the actor may not read.
   * Served from running totals kept with the writes where the scope allows, so its cost does
   * not grow with the table.
   */
  groupTotals(actor: Actor, entity: string, query?: GroupQuery): Promise<GroupTotals>;
  /**
   * The list as its screen's board (`board`): per column (a state or enum value) the count and
   * sum over the records the actor may list, its first cards in the list's order, and per card
   * the transitions offered to the actor and whether they may update it. A grouped query, a
   * keyset page per non-empty column and one query for the moves. VALIDATION_FAILED for an
   * entity without a board; FORBIDDEN_FIELD when the actor may not read the board's field.
   */
  board(actor: Actor, entity: string, query?: BoardQuery): Promise<BoardPage>;
  /** Records per day (UTC) of a datetime field over the last days, in the actor's list scope. */
  perDay(actor: Actor, entity: string, query: DayQuery): Promise<DayCounts>;
  /**
   * Of records that changed (ids, or deleted rows' last images), those the actor may read now,
   * in one query; null means "some, unnamed", only for an actor who may read every record.
   * What live pages tell each viewer (src/engine/live).
   */
  readable(actor: Actor, entity: string, changed: ChangedRecords): Promise<readonly number[] | null>;
  /** Throws NOT_FOUND when the record is absent or out of the actor's scope. */
  get(actor: Actor, entity: string, id: number): Promise<RecordView>;
  /**
   * One record by the value of a unique text field (an article's slug: `getBy(actor, 'article',
   * 'slug', 'hello-world')`); NOT_FOUND as for get, and when the actor may not read the field.
   */
  getBy(actor: Actor, entity: string, field: string, value: string): Promise<RecordView>;
  /**
   * Throws VALIDATION_FAILED with field errors; FORBIDDEN_FIELD for a field the actor may not write.
   * A record shown as related on a detail page (a comment under a ticket) cannot be added to a
   * record in a final state (its workflow's finalError) unless the section allows it, and may
   * take a transition of that record in the same transaction (the section's `transitions`, or
   * `options.replyWith`).
   */
  create(actor: Actor, entity: string, input: RecordInput, options?: CreateOptions): Promise<RecordData>;
  /**
   * Whether a create with these values (the others as a create form starts them: their defaults)
   * would fall within the actor's create scope, for a door to offer only what `create` will
   * accept (the reply box under a record: `{ ticket: 42 }`). Writes nothing; `create` checks all again.
   */
  mayCreate(actor: Actor, entity: string, values: RecordInput): Promise<boolean>;
  /**
   * The defaults a create of the entity would take that only the database knows: each reference
   * with `default: { own }` and the actor's own record it would point at (none when the actor has
   * none), for a new-record form to start with what `create` would set.
   */
  createDefaults(actor: Actor, entity: string): Promise<Readonly<Record<string, number>>>;
  /**
   * Many records at once (an import): each row checked exactly as `create` checks one, refusals
   * reported per row (by index) rather than thrown; nothing is written unless every row passes,
   * or with `goodRows` the rows that pass. One transaction, multi-row inserts. FORBIDDEN (thrown)
   * when no role of the actor may create the entity; PAYLOAD_TOO_LARGE (thrown, nothing checked)
   * for more rows than the actor's cap (rows-cap.ts). The first refusals are listed, all counted.
   */
  createMany(actor: Actor, entity: string, inputs: readonly RecordInput[], options?: CreateManyOptions): Promise<CreateManyResult>;
  /**
   * What values of a reference or user field name as a person writes them (an id, a record's
   * exact title, a user's email or name), by value: an id or why none (no match, several).
   */
  lookup(actor: Actor, entity: string, field: string, values: readonly string[]): Promise<ReadonlyMap<string, LookupResult>>;
  /** Throws STALE_VERSION when `expectedVersion` is not the stored version. */
  update(actor: Actor, entity: string, id: number, input: RecordInput, expectedVersion: number): Promise<RecordData>;
  delete(actor: Actor, entity: string, id: number, expectedVersion?: number): Promise<void>;
  /**
   * The same field values written on many records (a list's selected rows), each row exactly as
   * `update` writes one: its own version check and transaction, its refusal reported in its
   * result. FORBIDDEN (no update grant) and FORBIDDEN_FIELD (a field the actor may not write) are
   * thrown for the whole call, as are VALIDATION_FAILED for no rows or more than MAX_BULK_ROWS.
   * One result per distinct id, in order.
   */
  bulkUpdate(
    actor: Actor,
    entity: string,
    items: readonly { readonly id: number; readonly version?: number }[],
    input: RecordInput,
  ): Promise<BulkUpdateResult[]>;
  /**
   * Many records deleted, each as `delete` deletes one (the version when given, its own
   * transaction, its refusal reported). FORBIDDEN is thrown when no role of the actor may delete
   * the entity. One result per distinct id, in order.
   */
  bulkDelete(
    actor: Actor,
    entity: string,
    items: readonly { readonly id: number; readonly version?: number }[],
  ): Promise<BulkDeleteResult[]>;
  /**
   * Takes a workflow transition: the only way a state changes. Refusals: NOT_FOUND (out of read
   * scope), TRANSITION_NOT_ALLOWED (wrong state, not the actor's, guard failed, required fields
   * missing), the spec's own code for an owner's window, VALIDATION_FAILED (input, comment, entity
   * rules), STALE_VERSION, LIMIT_EXCEEDED. Effects and history are written in the same transaction.
   */
  transition(actor: Actor, entity: string, id: number, name: string, request: TransitionRequest): Promise<RecordData>;
  /**
   * The same transition on many records, each in its own transaction with its own version check
   * (a row without the version the actor saw is refused with PRECONDITION_REQUIRED, as a single
   * transition would be). One result per distinct id, in order.
   */
  bulkTransition(
    actor: Actor,
    entity: string,
    name: string,
    items: readonly { readonly id: number; readonly version?: number }[],
    request?: Omit<TransitionRequest, 'version'>,
  ): Promise<BulkTransitionResult[]>;
  /** The record's history, newest first, without fields the actor may not read. NOT_FOUND as for get. */
  history(actor: Actor, entity: string, id: number, query?: { cursor?: string; limit?: number }): Promise<HistoryPage>;
  /**
   * Choices for a reference or user field in a form, by title. `complete` is false when there
   * are more than `limit` and the form must offer a search instead of a plain select. `within`:
   * the form's value of the field's `within` (a deal's company), to offer only records sharing it.
   */
  choices(
    actor: Actor,
    entity: string,
    field: string,
    options?: ChoicesQuery,
  ): Promise<{ choices: readonly ReferenceChoice[]; complete: boolean }>;
}

type WithoutActor<F> = F extends (actor: Actor, ...rest: infer A) => infer R ? (...rest: A) => R : never;

/** The operations with the actor already given: what custom calls receive, so access still holds. */
export type BoundOps = { readonly [K in keyof Ops]: WithoutActor<Ops[K]> };

declare module '../spec/types' {
  /** The spec's custom code receives the bound operations (the spec's types cannot import them). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the interface is BoundOps itself, named where the spec sees it
  interface SpecOps extends BoundOps {}
}

export function bindOps(ops: Ops, actor: Actor): BoundOps {
  return {
    access: (...args) => ops.access(actor, ...args),
    mayQuery: (...args) => ops.mayQuery(actor, ...args),
    list: (...args) => ops.list(actor, ...args),
    count: (...args) => ops.count(actor, ...args),
    search: (...args) => ops.search(actor, ...args),
    groupTotals: (...args) => ops.groupTotals(actor, ...args),
    board: (...args) => ops.board(actor, ...args),
    perDay: (...args) => ops.perDay(actor, ...args),
    readable: (...args) => ops.readable(actor, ...args),
    get: (...args) => ops.get(actor, ...args),
    getBy: (...args) => ops.getBy(actor, ...args),
    create: (...args) => ops.create(actor, ...args),
    mayCreate: (...args) => ops.mayCreate(actor, ...args),
    createDefaults: (...args) => ops.createDefaults(actor, ...args),
    createMany: (...args) => ops.createMany(actor, ...args),
    lookup: (...args) => ops.lookup(actor, ...args),
    update: (...args) => ops.update(actor, ...args),
    delete: (...args) => ops.delete(actor, ...args),
    bulkUpdate: (...args) => ops.bulkUpdate(actor, ...args),
    bulkDelete: (...args) => ops.bulkDelete(actor, ...args),
    transition: (...args) => ops.transition(actor, ...args),
    bulkTransition: (...args) => ops.bulkTransition(actor, ...args),
    history: (...args) => ops.history(actor, ...args),
    choices: (...args) => ops.choices(actor, ...args),
  };
}
