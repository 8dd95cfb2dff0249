/**
 * The permission matrix, run: users for every persona of the spec, records for every scope case
 * of every entity (inserted directly, in any state), and a runner that asks one door (ops, the
 * server actions, the REST API) for every cell and compares with what the spec says
 * (./matrix.ts). After every refused write it checks that no table changed.
 */
import { faker } from '@faker-js/faker';
import { sql } from 'kysely';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { createActor } from '@testing/engine/ops';
import { recordColumns, rowToRecord, valuesToRow } from '@/engine/ops/records';
import type { RecordData } from '@/engine/ops/types';
import type { RecordValue } from '@/engine/ground/record-value';
import type { Actor } from '@/engine/ground/actor';
import type { Ops } from '@/engine/ops/ops';
import { demoValue } from '@/engine/seed/demo-values';
import type { AppModel, EntityModel } from '@/engine/spec/model';
import { DEFAULT_GUARD_CODE } from '@/engine/spec/guards';
import { AUDIT_TABLE } from '@/engine/store/schema/desired';
import type { DynamicDatabase } from '@/engine/store/types';
import { authorId, visitorActor } from '@/engine/access/visitor';
import {
  createdRecord,
  defaultOf,
  expectedCreate,
  expectedFieldWrite,
  expectedKeys,
  expectedOn,
  expectedTransition,
  may,
  personasOf,
  scopeDimensions,
  transitionedRecord,
  type MatrixRecord,
  type Outcome,
  type Persona,
  type RecordLookup,
  USER_RECORDS,
} from '@testing/access-matrix/oracle';
import { declared, declaredField, referencedEntity } from '@/engine/ops/declared';

/** A whole matrix run asks thousands of cells: a test that runs one may take more than the default minute on a busy machine. */
export const MATRIX_TIMEOUT_MS = 300_000;

export interface MatrixUser {
  readonly persona: Persona;
  readonly actor: Actor;
}

/** A record of the matrix: which persona it was made for, and what makes it a case. */
export interface Fixture {
  readonly persona: string;
  readonly entity: string;
  readonly record: MatrixRecord;
  /** e.g. "requester: own, state: closed" or "ticket: readable, internal: true". */
  readonly label: string;
}

export interface CreateCase {
  readonly persona: string;
  readonly entity: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly label: string;
}

export interface MatrixFixtures {
  readonly users: readonly MatrixUser[];
  /** Owns the records that are "another user's". */
  readonly stranger: Actor;
  readonly fixtures: readonly Fixture[];
  readonly creates: readonly CreateCase[];
  readonly lookup: RecordLookup;
}

/** Entities in an order where the ones referred to come first. */
function referenceOrder(model: AppModel): EntityModel[] {
  const ordered: EntityModel[] = [];
  const visit = (entity: EntityModel, path: Set<string>) => {
    if (ordered.includes(entity) || path.has(entity.name)) return;
    path.add(entity.name);
    for (const f of entity.fields) if (f.referenceTo && f.referenceTo !== entity.name) visit(referencedEntity(model, f), path);
    ordered.push(entity);
  };
  for (const entity of model.entities) visit(entity, new Set());
  return ordered;
}

function product<T>(dimensions: readonly (readonly T[])[]): T[][] {
  return dimensions.reduce<T[][]>((rows, values) => rows.flatMap((row) => values.map((v) => [...row, v])), [[]]);
}

const MAX_CASES_PER_ENTITY = 60;
let uniqueCounter = 1;

/** Whether the user may be named by the field: any user, or one holding one of its `roles`. */
function mayHold(field: EntityModel['fields'][number], user: Actor): boolean {
  return !field.holderRoles || field.holderRoles.some((role) => user.roles.includes(role));
}

/**
 * A valid value for a required field that no scope depends on. A user field with `roles` the
 * actor lacks (a ticket's customer requester, filed by an agent) names `holder`, who holds every role.
 */
function filler(
  field: EntityModel['fields'][number],
  actor: Actor,
  holder: Actor,
  firstOf: (entity: string) => MatrixRecord | undefined,
): unknown {
  const named = field.type === 'user' && !mayHold(field, actor) ? holder : actor;
  const fallback = defaultOf(field, named);
  if (fallback !== null) return fallback;
  if (!field.required) return null;
  if (field.type === 'user') return named.userId;
  if (field.type === 'reference') return firstOf(field.referenceTo!)?.id ?? null;
  uniqueCounter += 1;
  return demoValue(faker, field, uniqueCounter);
}

/**
 * Users (one per persona, and a stranger) and, per persona and entity, one record for every
 * combination of the values its scopes depend on: its own or another's, each value a `where`
 * looks at, a reference to a record the persona may read or may not.
 */
export async function createMatrixFixtures(
  model: AppModel,
  db: DynamicDatabase,
  personas: readonly Persona[] = personasOf(model),
): Promise<MatrixFixtures> {
  faker.seed(4);
  const byId = new Map<string, Map<number, MatrixRecord>>();
  const lookup: RecordLookup = (entity, id) => byId.get(entity)?.get(id);
  const remember = (entity: string, record: MatrixRecord) => {
    if (!byId.has(entity)) byId.set(entity, new Map());
    byId.get(entity)!.set(record.id, record);
  };
  // The users' fields: every signed-in persona (and a colleague) shares "home" values, the stranger has others;
  // a persona moved to another team has "moved" ones once its records are written.
  const { home, away, moved } = await userFieldValues(model, db, remember);
  const withFields = async (actor: Actor, fields: Readonly<Record<string, RecordValue>>): Promise<Actor> => {
    await storeUserFields(model, db, actor.userId, fields);
    remember(USER_RECORDS, { ...fields, id: actor.userId });
    return { ...actor, fields };
  };
  // They own records and act on none: every declared role, so that they may be named by user fields that want one.
  const everyRole = Object.keys(model.roles).filter((role) => role !== 'public');
  const stranger = await withFields(await createActor(db, everyRole, 'Stranger'), away);
  const colleague = await withFields(await createActor(db, everyRole, 'Colleague'), home);
  const users: MatrixUser[] = [];
  for (const persona of personas) {
    users.push({
      persona,
      actor: persona.visitor ? visitorActor() : await withFields(await createActor(db, persona.roles, `Matrix ${persona.name}`), home),
    });
  }

  const fixtures: Fixture[] = [];
  const creates: CreateCase[] = [];

  for (const { persona, actor } of users) {
    const mine = (entity: string) => fixtures.filter((f) => f.persona === persona.name && f.entity === entity);
    // A visitor has no account: the records made for them belong to the stranger.
    const owner = persona.visitor ? stranger : actor;
    for (const entity of referenceOrder(model)) {
      const dims = scopeDimensions(entity);
      const axes: { field: string; kind: 'own' | 'actor' | 'path' | 'where' | 'via'; values: unknown[] }[] = [
        // Records are as the spec allows them: a user field with `roles` never names the persona when it holds none of them
        // (an agent is never a ticket's requester). The colleague and the stranger hold every role.
        ...dims.own.map((field) => ({
          field,
          kind: 'own' as const,
          values: [
            ...(persona.visitor || !ownable(entity, field, actor) ? [] : [actor.userId]),
            ...(dims.colleagues.includes(field) ? [colleague.userId] : []),
            stranger.userId,
          ],
        })),
        // Compared with a user field of the actor: their value, another, none.
        ...[...dims.actor].map(([field, userField]) => ({
          field,
          kind: 'actor' as const,
          values: [
            ...new Set(
              [home[userField], away[userField], ...(entity.fieldsByName[field]?.required ? [] : [null])].filter((v) => v !== undefined),
            ),
          ],
        })),
        // Followed by a path: a few of the records it may point at.
        ...dims.paths.map((field) => ({
          field,
          kind: 'path' as const,
          values: [
            ...mine(referencedEntity(model, declaredField(entity, field)).name)
              .slice(0, 3)
              .map((f) => f.record.id),
            ...(declaredField(entity, field).required ? [] : [null]),
          ],
        })),
        ...[...dims.where].map(([field, values]) => ({ field, kind: 'where' as const, values: [...values] })),
        ...dims.via.map((field) => {
          const target = referencedEntity(model, declaredField(entity, field));
          const candidates = mine(target.name).map((f) => f.record);
          const readable = candidates.find((r) => may(model, target, 'read', actor, r, lookup));
          const unreadable = candidates.find((r) => !may(model, target, 'read', actor, r, lookup));
          return { field, kind: 'via' as const, values: [readable?.id, unreadable?.id].filter((id) => id !== undefined) };
        }),
      ];
      const combos = product(axes.map((a) => a.values)).slice(0, MAX_CASES_PER_ENTITY);
      const describe = (combo: readonly unknown[], withState: boolean) =>
        axes
          .map((axis, i) => {
            const value = combo[i];
            if (axis.kind === 'own')
              return `${axis.field}: ${value === actor.userId ? 'own' : value === colleague.userId ? "a colleague's" : "another's"}`;
            if (axis.kind === 'actor')
              return `${axis.field}: ${value === null ? 'none' : value === home[dims.actor.get(axis.field)!] ? (persona.moved ? 'former' : 'yours') : "another's"}`;
            if (axis.kind === 'path') return `${axis.field}: ${value === null ? 'none' : `record ${axis.values.indexOf(value) + 1}`}`;
            if (axis.kind === 'via') {
              const target = referencedEntity(model, declaredField(entity, axis.field));
              const record = lookup(target.name, value as number);
              return `${axis.field}: ${record && may(model, target, 'read', actor, record, lookup) ? 'readable' : 'not readable'}`;
            }
            // A create gives neither the state nor what nobody writes (a time the workflow sets).
            if (!withState && (entity.workflow?.field === axis.field || entity.fieldsByName[axis.field]?.readOnly)) return null;
            // A time either side of now (matrix.ts): which side, not the moment, so that labels stay the same from run to run.
            const type = entity.fieldsByName[axis.field]?.type;
            if (value !== null && (type === 'datetime' || type === 'date'))
              return `${axis.field}: ${new Date(value as string | Date).getTime() < Date.now() ? 'long ago' : 'far ahead'}`;
            return `${axis.field}: ${JSON.stringify(value)}`;
          })
          .filter((part): part is string => part !== null)
          .join(', ') || 'any record';

      const seenCreates = new Set<string>();
      for (const combo of combos) {
        const values: Record<string, unknown> = {};
        const firstOf = (name: string) => mine(name)[0]?.record;
        for (const field of entity.fields) values[field.name] = filler(field, owner, stranger, firstOf);
        let state = entity.workflow?.initial;
        axes.forEach((axis, i) => {
          if (entity.workflow?.field === axis.field) state = combo[i] as string;
          else values[axis.field] = combo[i];
        });
        // A scope on the id itself (a user's own team: `id` equal to `{ actor: 'team' }`): the case is that record, made with the users.
        const byId = axes.findIndex((axis) => axis.field === 'id');
        let record: MatrixRecord | undefined;
        if (byId >= 0) record = lookup(entity.name, combo[byId] as number);
        else {
          const row = await db
            .insertInto(entity.table)
            .values({
              ...valuesToRow(entity, values),
              ...(entity.workflow ? { [entity.workflow.column]: state } : {}),
              created_by: authorId(owner),
              updated_by: authorId(owner),
            })
            .returning(recordColumns(entity))
            .executeTakeFirstOrThrow();
          record = rowToRecord(entity, row) as unknown as MatrixRecord;
          remember(entity.name, record);
        }
        if (!record) continue;
        fixtures.push({ persona: persona.name, entity: entity.name, record, label: describe(combo, true) });

        // The same case as a create: what the scopes look at, given only where a default does not already give it.
        const input: Record<string, unknown> = {};
        axes.forEach((axis, i) => {
          const field = entity.fieldsByName[axis.field];
          if (!field || field.readOnly) return; // the state: a new record is in the initial one; what nobody writes keeps its default
          if (axis.kind !== 'via' && defaultOf(field, actor) === combo[i]) return;
          input[axis.field] = combo[i];
        });
        const key = JSON.stringify(input);
        if (seenCreates.has(key)) continue;
        seenCreates.add(key);
        for (const field of entity.fields) {
          // A default naming the actor counts only where the actor may hold the field: else the create names a holder.
          const usableDefault = defaultOf(field, actor) !== null && (field.type !== 'user' || mayHold(field, actor));
          if (field.required && !(field.name in input) && !usableDefault) input[field.name] = filler(field, owner, stranger, firstOf);
        }
        creates.push({ persona: persona.name, entity: entity.name, input, label: describe(combo, false) });
      }
    }
  }
  // Moved to another team after writing their records: what was "yours" is their former team's now.
  const settled: MatrixUser[] = [];
  for (const user of users) settled.push(user.persona.moved ? { ...user, actor: await withFields(user.actor, moved) } : user);
  return { users: settled, stranger, fixtures, creates, lookup };
}

/** Whether a record's `own` field may name the actor: not a field (`id`), or a user field they may hold. */
function ownable(entity: EntityModel, name: string, actor: Actor): boolean {
  const field = entity.fieldsByName[name];
  return !field || mayHold(field, actor);
}

/** The input with new values for its unique fields, so that the same case can be created again. */
function freshUniques(entity: EntityModel, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const fresh: Record<string, unknown> = { ...input };
  for (const field of entity.fields) {
    if (!field.unique || !(field.name in fresh) || field.type === 'reference' || field.type === 'user') continue;
    uniqueCounter += 1;
    fresh[field.name] = demoValue(faker, { ...field, required: true }, uniqueCounter);
  }
  return fresh;
}

/** A new record with the fixture's values (unique ones made unique again): for deletes, so that nothing refers to it. */
export async function copyFixture(model: AppModel, db: DynamicDatabase, fixture: Fixture): Promise<MatrixRecord> {
  const entity = declared(model.entitiesByName, fixture.entity, 'entity');
  const values: Record<string, unknown> = {};
  for (const field of entity.fields) {
    uniqueCounter += 1;
    values[field.name] = field.unique ? demoValue(faker, { ...field, required: true }, uniqueCounter) : fixture.record[field.name];
  }
  const state = entity.workflow ? { [entity.workflow.column]: fixture.record[entity.workflow.field] } : {};
  const row = await db
    .insertInto(entity.table)
    .values({ ...valuesToRow(entity, values), ...state, created_by: fixture.record.createdBy, updated_by: fixture.record.createdBy })
    .returning(recordColumns(entity))
    .executeTakeFirstOrThrow();
  return rowToRecord(entity, row) as unknown as MatrixRecord;
}

// ---------------------------------------------------------------- doors

/** An answer that is none of the outcomes: the door's status and code, for the failure message. */
export type Answer = Outcome | `unexpected ${string}`;

/** A record a door answered with (read, listed or written): done, with the keys the record carries. */
export interface Shown {
  readonly keys: readonly string[];
}

/** A door's answer: a refusal or outcome, or a record it sent back (a door without records, a form, answers 'allowed'). */
export type Reply = Answer | Shown;

export const shown = (record: object): Shown => ({ keys: Object.keys(record) });

/** One way into the engine, answering each cell of the matrix with an outcome. */
export interface MatrixDoor {
  readonly name: string;
  /** Every record the user lists (all pages), by id, or the refusal. Absent for a door that only writes (forms). */
  list?(user: MatrixUser, entity: string): Promise<readonly (Shown & { readonly id: number })[] | Answer>;
  read?(user: MatrixUser, entity: string, id: number): Promise<Reply>;
  create(user: MatrixUser, entity: string, input: Readonly<Record<string, unknown>>): Promise<Reply>;
  update(user: MatrixUser, entity: string, id: number, input: Readonly<Record<string, unknown>>, version: number): Promise<Reply>;
  delete(user: MatrixUser, entity: string, id: number, version: number): Promise<Reply>;
  /** Takes a workflow transition (no comment, no input). Absent for a door without transitions. */
  transition?(user: MatrixUser, entity: string, id: number, name: string, version: number): Promise<Reply>;
}

/** The outcome of a refusal by its catalogue code (and, for VALIDATION_FAILED, its field codes). */
export function outcomeOfCode(code: string, fieldCodes: readonly string[] = []): Answer {
  if (code === 'NOT_FOUND') return 'hidden';
  if (code === 'FORBIDDEN') return 'forbidden';
  if (code === 'FORBIDDEN_FIELD') return 'forbiddenField';
  if (code === 'TRANSITION_NOT_ALLOWED') return 'notAllowed';
  // A reference to a record the actor may not read is refused like a missing one.
  if (code === 'VALIDATION_FAILED' && fieldCodes.length > 0 && fieldCodes.every((c) => c === 'unknown_reference')) return 'hidden';
  return `unexpected ${code} ${fieldCodes.join(',')}`;
}

async function settle(run: () => Promise<object | void>): Promise<Reply> {
  try {
    const answer = await run();
    return answer ? shown(answer) : 'allowed';
  } catch (error) {
    if (error instanceof NinefoldError)
      return outcomeOfCode(
        error.code,
        error.fieldErrors.map((e) => e.code),
      );
    throw error;
  }
}

/** The engine's operations themselves. */
export function opsDoor(ops: Ops): MatrixDoor {
  return {
    name: 'ops',
    async list(user, entity) {
      const rows: (Shown & { id: number })[] = [];
      let cursor: string | undefined;
      try {
        do {
          const page = await ops.list(user.actor, entity, { limit: 500, ...(cursor ? { cursor } : {}) });
          rows.push(...page.rows.map((r) => ({ id: r.id, ...shown(r) })));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      } catch (error) {
        if (error instanceof NinefoldError) return outcomeOfCode(error.code);
        throw error;
      }
      return rows;
    },
    read: (user, entity, id) => settle(async () => (await ops.get(user.actor, entity, id)).record),
    create: (user, entity, input) => settle(() => ops.create(user.actor, entity, input)),
    update: (user, entity, id, input, version) => settle(() => ops.update(user.actor, entity, id, input, version)),
    delete: (user, entity, id, version) => settle(() => ops.delete(user.actor, entity, id, version)),
    transition: (user, entity, id, name, version) => settle(() => ops.transition(user.actor, entity, id, name, { version })),
  };
}

// ---------------------------------------------------------------- the run

/**
 * The matrix as the spec states it, without asking any door: the expected outcome of every
 * list, read, update, delete and create cell, by "persona × entity × action [case]".
 */
export function expectedMatrix(model: AppModel, fixtures: MatrixFixtures): Map<string, Outcome> {
  const cells = new Map<string, Outcome>();
  for (const { persona, actor } of fixtures.users) {
    for (const entity of model.entities) {
      const at = (action: string, label: string) => `${persona.name} × ${entity.name} × ${action} [${label}]`;
      for (const fixture of fixtures.fixtures.filter((f) => f.entity === entity.name && f.persona === persona.name)) {
        for (const action of ['list', 'read', 'update', 'delete'] as const) {
          cells.set(at(action, fixture.label), expectedOn(model, entity, action, actor, fixture.record, fixtures.lookup));
        }
        for (const transition of entity.workflow?.transitions ?? []) {
          cells.set(
            at(transition.name, fixture.label),
            expectedTransition(model, entity, transition.name, actor, fixture.record, fixtures.lookup),
          );
        }
      }
      for (const create of fixtures.creates.filter((c) => c.entity === entity.name && c.persona === persona.name)) {
        cells.set(at('create', create.label), expectedCreate(model, entity, actor, create.input, fixtures.lookup));
      }
    }
  }
  return cells;
}

export interface MatrixRun {
  /** Cells asked: one per persona, entity, action and case (and per field for field writes). */
  readonly checks: number;
  readonly mismatches: readonly string[];
  /** Cells per expected outcome, to show that the matrix is not all one kind. */
  readonly outcomes: Readonly<Record<Outcome, number>>;
  /** Door calls answered FORBIDDEN or FORBIDDEN_FIELD (a refused list counts once). */
  readonly refusedCalls: number;
}

async function snapshotOf(model: AppModel, db: DynamicDatabase): Promise<string> {
  // Every table's rows in one statement: a snapshot follows each refused call, hundreds per matrix,
  // and one round trip per table was most of the matrix's time.
  // A fingerprint per table, in one statement (one follows every refused call, thousands per matrix):
  // every write through ops adds, removes or re-versions a row and writes the history.
  const fingerprint = (table: string) =>
    sql`(select concat_ws(':', count(*), max(id), sum(version), max(updated_at)) from ${sql.table(table)})`;
  const tables = model.entities.map((entity) => fingerprint(entity.table));
  const history = sql`(select concat_ws(':', count(*), max(id)) from ${sql.table(AUDIT_TABLE)})`;
  const { rows } = await sql<{ snapshot: string }>`select concat_ws(',', ${sql.join([...tables, history])}) as snapshot`.execute(db);
  // A SELECT without FROM gives one row.
  return rows[0]!.snapshot;
}

async function currentRecord(db: DynamicDatabase, entity: EntityModel, id: number): Promise<RecordData> {
  const row = await db.selectFrom(entity.table).select(recordColumns(entity)).where('id', '=', id).executeTakeFirstOrThrow();
  return rowToRecord(entity, row);
}

const sameKeys = (a: readonly string[], b: readonly string[]) => [...a].sort().join() === [...b].sort().join();

/**
 * Asks the door every cell of the matrix of `model` over the fixtures, and compares with what the
 * spec says. `model` may differ from the one the fixtures were made with (same tables, other
 * permissions): the expectations follow it. A record a door answers with (read, listed, written)
 * must carry exactly the keys the actor may read of it (only its receipt when they may not read it).
 */
export async function runMatrix(model: AppModel, db: DynamicDatabase, fixtures: MatrixFixtures, door: MatrixDoor): Promise<MatrixRun> {
  const mismatches: string[] = [];
  const outcomes: Record<Outcome, number> = {
    allowed: 0,
    hidden: 0,
    forbidden: 0,
    forbiddenField: 0,
    final: 0,
    notAllowed: 0,
    conditionCode: 0,
  };
  // The codes a final state answers with: RECORD_FINAL, or a workflow's own.
  const finalCodes = new Set(['RECORD_FINAL', ...model.entities.flatMap((e) => (e.workflow ? [e.workflow.finalError] : []))]);
  // The codes the spec gives an owner's `when` or a guard that does not hold.
  const conditionCodes = new Set(
    model.entities.flatMap((e) =>
      (e.workflow?.transitions ?? []).flatMap((t) => [
        ...t.allow.flatMap((a) => (typeof a !== 'string' && a.error ? [a.error] : [])),
        ...t.guards.flatMap((g) => (g.code !== DEFAULT_GUARD_CODE ? [g.code] : [])),
      ]),
    ),
  );
  const outcomeOf = (answer: Answer): Answer => {
    const code = answer.replace(/^unexpected (\S+).*$/, '$1');
    return finalCodes.has(code) ? 'final' : conditionCodes.has(code) ? 'conditionCode' : answer;
  };
  let checks = 0;
  let refusedCalls = 0;
  let before = await snapshotOf(model, db);
  const counted = (answer: Answer) => {
    if (answer === 'forbidden' || answer === 'forbiddenField') refusedCalls += 1;
  };

  /** `wrote`: a write was asked (a refused one must change nothing). `keys`: what a record the door answers with must carry. */
  const check = async (where: string, expected: Outcome, reply: Reply, wrote: boolean, keys?: readonly string[]) => {
    const got = typeof reply === 'string' ? outcomeOf(reply) : 'allowed';
    checks += 1;
    outcomes[expected] += 1;
    if (!where.includes(' × list [')) counted(got);
    if (got !== expected) mismatches.push(`${door.name} ${where}: expected ${expected}, got ${got}`);
    if (expected === 'allowed' && typeof reply !== 'string' && keys && !sameKeys(reply.keys, keys)) {
      mismatches.push(
        `${door.name} ${where}: answered with [${[...reply.keys].sort().join(', ')}], expected [${[...keys].sort().join(', ')}]`,
      );
    }
    if (!wrote) return;
    if (got === 'allowed') before = await snapshotOf(model, db);
    else {
      const after = await snapshotOf(model, db);
      if (after !== before) {
        mismatches.push(`${door.name} ${where}: refused (${got}) but the database changed`);
        before = after;
      }
    }
  };

  for (const user of fixtures.users) {
    const { actor } = user;
    for (const entity of model.entities) {
      const at = (action: string, label: string) => `${user.persona.name} × ${entity.name} × ${action} [${label}]`;
      const all = fixtures.fixtures.filter((f) => f.entity === entity.name);
      const mine = all.filter((f) => f.persona === user.persona.name);
      // A record's keys as the actor reads it: the fields the grants that let the actor see it show.
      const keysOf = (record: MatrixRecord) => expectedKeys(model, entity, actor, record, fixtures.lookup, true);

      // list: every record of the entity, whoever it was made for, is listed or not.
      if (door.list) {
        const listed = await door.list(user, entity.name);
        if (typeof listed === 'string') counted(listed);
        for (const fixture of all) {
          const expected = expectedOn(model, entity, 'list', actor, fixture.record, fixtures.lookup);
          const row = typeof listed === 'string' ? undefined : listed.find((r) => r.id === fixture.record.id);
          const got: Reply = typeof listed === 'string' ? listed : (row ?? 'hidden');
          const own = fixture.persona === user.persona.name ? fixture.label : `${fixture.label} of ${fixture.persona}`;
          await check(at('list', own), expected, got, false, keysOf(fixture.record));
        }
      }

      if (door.read) {
        for (const fixture of mine) {
          const expected = expectedOn(model, entity, 'read', actor, fixture.record, fixtures.lookup);
          await check(
            at('read', fixture.label),
            expected,
            await door.read(user, entity.name, fixture.record.id),
            false,
            keysOf(fixture.record),
          );
        }
      }

      // An update changes nothing here: the record stays as readable as it was (an update needs it readable).
      for (const fixture of mine) {
        const { version } = await currentRecord(db, entity, fixture.record.id);
        const got = await door.update(user, entity.name, fixture.record.id, {}, version);
        await check(
          at('update', fixture.label),
          expectedOn(model, entity, 'update', actor, fixture.record, fixtures.lookup),
          got,
          true,
          keysOf(fixture.record),
        );
      }

      // Field by field: setting each field (and the state) to the value it has, on one record.
      const target = mine.find((f) => expectedOn(model, entity, 'update', actor, f.record, fixtures.lookup) === 'allowed') ?? mine[0];
      if (target) {
        for (const name of [...entity.fields.map((f) => f.name), ...(entity.workflow ? [entity.workflow.field] : [])]) {
          const current = await currentRecord(db, entity, target.record.id);
          const got = await door.update(user, entity.name, target.record.id, { [name]: current[name] }, current.version);
          await check(
            at(`update ${name}`, target.label),
            expectedFieldWrite(model, entity, name, actor, target.record, fixtures.lookup),
            got,
            true,
            keysOf(target.record),
          );
        }
      }

      for (const fixture of mine) {
        const copy = await copyFixture(model, db, fixture);
        before = await snapshotOf(model, db);
        const got = await door.delete(user, entity.name, copy.id, copy.version as number);
        await check(at('delete', fixture.label), expectedOn(model, entity, 'delete', actor, copy, fixtures.lookup), got, true);
      }

      // Transitions: taken on a copy where the spec allows it (the fixture keeps its state), on the fixture itself where it
      // refuses; on every record in a state it leaves, and on one in a state it does not.
      if (door.transition) {
        for (const transition of entity.workflow?.transitions ?? []) {
          const inFromState = (f: Fixture) => transition.from.includes(String(f.record[entity.workflow!.field]));
          const elsewhere = mine.find((f) => !inFromState(f));
          for (const fixture of mine.filter((f) => inFromState(f) || f === elsewhere)) {
            const expected = expectedTransition(model, entity, transition.name, actor, fixture.record, fixtures.lookup);
            const record = expected === 'allowed' ? await copyFixture(model, db, fixture) : fixture.record;
            if (expected === 'allowed') before = await snapshotOf(model, db);
            const { version } = await currentRecord(db, entity, record.id);
            const got = await door.transition(user, entity.name, record.id, transition.name, version);
            const after = transitionedRecord(entity, transition.name, actor, record);
            const keys = expectedKeys(
              model,
              entity,
              actor,
              after,
              fixtures.lookup,
              may(model, entity, 'read', actor, after, fixtures.lookup),
            );
            await check(at(transition.name, fixture.label), expected, got, true, keys);
          }
        }
      }

      for (const create of fixtures.creates.filter((c) => c.persona === user.persona.name && c.entity === entity.name)) {
        const got = await door.create(user, entity.name, freshUniques(entity, create.input));
        const created = createdRecord(entity, actor, create.input);
        const keys = expectedKeys(
          model,
          entity,
          actor,
          created,
          fixtures.lookup,
          may(model, entity, 'read', actor, created, fixtures.lookup),
        );
        await check(at('create', create.label), expectedCreate(model, entity, actor, create.input, fixtures.lookup), got, true, keys);
      }
    }
  }
  return { checks, mismatches, outcomes, refusedCalls };
}

/**
 * Three values of every reference user field (`team`): a record of its entity for "home" (the
 * personas' and a colleague's), one for "away" (the stranger's) and one a persona moves to after
 * writing its records ("moved"). Other user fields stay empty.
 * A target that cannot be made without references of its own is left out (its field stays empty).
 */
async function userFieldValues(
  model: AppModel,
  db: DynamicDatabase,
  remember: (entity: string, record: MatrixRecord) => void,
): Promise<{ home: Record<string, RecordValue>; away: Record<string, RecordValue>; moved: Record<string, RecordValue> }> {
  const home: Record<string, RecordValue> = {};
  const away: Record<string, RecordValue> = {};
  const moved: Record<string, RecordValue> = {};
  for (const field of model.users.fields) {
    const target = field.referenceTo ? model.entitiesByName[field.referenceTo] : undefined;
    if (!target || target.fields.some((f) => f.required && f.type === 'reference')) continue;
    const made: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const values: Record<string, unknown> = {};
      for (const f of target.fields) {
        uniqueCounter += 1;
        values[f.name] = f.required || f.unique ? demoValue(faker, { ...f, required: true }, uniqueCounter) : null;
      }
      const row = await db
        .insertInto(target.table)
        .values({ ...valuesToRow(target, values), ...(target.workflow ? { [target.workflow.column]: target.workflow.initial } : {}) })
        .returning(recordColumns(target))
        .executeTakeFirstOrThrow();
      const record = rowToRecord(target, row) as unknown as MatrixRecord;
      remember(target.name, record);
      made.push(record.id);
    }
    const [first, second, third] = made;
    if (first === undefined || second === undefined || third === undefined) throw new Error(`Made ${made.length} records of 3`);
    home[field.name] = first;
    away[field.name] = second;
    moved[field.name] = third;
  }
  return { home, away, moved };
}

/** Writes a user's field values to their account, where scopes through `requester.organization` read them. */
async function storeUserFields(
  model: AppModel,
  db: DynamicDatabase,
  userId: number,
  fields: Readonly<Record<string, unknown>>,
): Promise<void> {
  const columns = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [declared(model.users.fieldsByName, name, 'user field').column, value]),
  );
  if (Object.keys(columns).length > 0) await db.updateTable('nf_user').set(columns).where('id', '=', userId).execute();
}
