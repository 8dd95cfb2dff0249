import { sql, type SqlBool } from 'kysely';
import { grantedOn } from './transition-offers';
import { authorizeScope } from '../access/authorize';
import { checkWritable } from '../access/fields';
import { forbidden } from '../access/refusal';
import { isVisitor } from '../access/visitor';
import { withArticle } from '../spec/naming';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import { parseRecordInput, type ParsedValues } from '../rules/record-input';
import type { AppModel, EntityModel, ReferenceEffectModel, TransitionModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { checkTransition, effectValues, findTransition, refuse, transitionConditions } from '../workflow/transitions';
import { withPathValues } from './path-values';
import { entityOf, type OpsContext } from './context';
import { inTransaction } from './transaction';
import { isRecordId } from './record-id';
import { eachBulkRow, MAX_BULK_ROWS, type BulkItem } from './bulk';
import type { BulkTransitionResult, RecordData, TransitionRequest } from './types';
import type { Actor } from '../ground/actor';
import { checkReferences, checkVersion, lockInScope, readBack, translating, writeLocked } from './write-kit';
import { lockForEffect, MAX_EFFECT_DEPTH, nextOrigin, setOnReferenced, type EffectOrigin } from './reference-effects';
import { chooseTarget } from '../workflow/targets';
import { withoutActorGuards } from '../workflow/guards';
import { inSentence } from '../spec/naming';

/** The scheduler taking an automatic transition: no grants asked, its clock, and why, for the history. */
export interface SystemTake {
  readonly now: Date;
  readonly comment: string;
}

/** Long enough for a real explanation; the history is not a document store. */
const MAX_COMMENT_LENGTH = 10_000;
/** Rows one bulk transition may touch (as any bulk write: ./bulk.ts). */
export const MAX_BULK_TRANSITION = MAX_BULK_ROWS;

function commentOf(transition: TransitionModel, raw: unknown): string | null {
  const invalid = (code: string, message: string) =>
    new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: [{ field: 'comment', code, message }] });
  if (raw !== undefined && raw !== null && typeof raw !== 'string') throw invalid('invalid_type', 'The comment must be text.');
  const comment = typeof raw === 'string' ? raw.trim() : '';
  if (comment === '') {
    if (transition.comment === 'required') throw invalid('required', `"${transition.label}" needs a comment.`);
    return null;
  }
  if ([...comment].length > MAX_COMMENT_LENGTH) throw invalid('too_big', `The comment must be at most ${MAX_COMMENT_LENGTH} characters.`);
  if (comment.includes('\u0000')) throw invalid('invalid_character', 'The comment cannot contain a NUL character.');
  return comment;
}

/**
 * Field values given with a transition are an update: the record must be in the actor's update
 * scope as well (a customer may not rewrite a resolved ticket by reopening it with new values).
 */
async function checkUpdateScope(model: AppModel, db: DynamicDatabase, entity: EntityModel, actor: Actor, id: number): Promise<void> {
  const scope = authorizeScope(model, entity, actor, 'update');
  if (scope.all) return;
  const inScope = await db.selectFrom(entity.table).select('id').where('id', '=', id).where(scope.sql).executeTakeFirst();
  if (!inScope) throw forbidden(actor, entity, 'update', `You are not allowed to change this ${inSentence(entity.label)}.`);
}

/** A refusal in the order the issue fixes: wrong state, then not the actor's (an owner's passed window with its own code). */
function refuseWho(model: AppModel, entity: EntityModel, record: RecordData, actor: Actor, transition: TransitionModel, now: Date): never {
  refuse(model, checkTransition(model, entity, record, actor, transition, now, false));
}

export async function takeTransition(
  ctx: OpsContext,
  actor: Actor,
  entity: EntityModel,
  id: number,
  transition: TransitionModel,
  request: Omit<TransitionRequest, 'version'>,
  /** The version the actor saw; undefined when the caller already holds the record (a reply taking it). */
  version: number | undefined,
  /** When taken as the effect of a write on another record (reference-effects.ts): that write. */
  origin?: EffectOrigin,
  /** The scheduler's own authority and clock, for automatic transitions (ops/auto-transitions.ts). */
  system?: SystemTake,
): Promise<RecordData> {
  const workflow = entity.workflow!;
  // Visitors look and send; the public is granted no transition (the spec check refuses one).
  if (!system && isVisitor(actor))
    throw forbidden(
      actor,
      entity,
      `transition:${transition.name}`,
      `Sign in to ${transition.label.toLowerCase()} ${withArticle(entity.label.toLowerCase())}.`,
    );
  const readScope = system ? { sql: sql<SqlBool>`true` } : authorizeScope(ctx.model, entity, actor, 'read');
  const comment = system ? system.comment : commentOf(transition, request.comment);
  const input = request.input ?? {};
  checkWritable(entity, actor, 'update', input);
  const values: ParsedValues = parseRecordInput(ctx.model, entity, input, 'update', actor);

  return translating(ctx.model, entity, () =>
    inTransaction(ctx.db, async (trx) => {
      const current = await lockInScope(ctx, trx, actor, entity, id, readScope.sql, version, `transition:${transition.name}`);
      const now = system?.now ?? new Date();
      // With the values of the paths its guard and owners' conditions compare (`patient.account`).
      const merged = await withPathValues(ctx.model, trx, entity, transitionConditions([transition]), {
        ...current,
        ...values,
      } as RecordData);
      // The system is granted what its automatic transitions are for; people by their grants and `allow`.
      const granted =
        transition.from.includes(String(current[workflow.field])) &&
        (system !== undefined || (await grantedOn(ctx.model, trx, entity, actor, transition.name, id)));
      if (!granted) refuseWho(ctx.model, entity, merged, actor, transition, now);
      const check = checkTransition(ctx.model, entity, merged, actor, transition, now, true);
      if (!check.allowed) refuse(ctx.model, check);
      if (Object.keys(values).length > 0) await checkUpdateScope(ctx.model, trx, entity, actor, id);
      const taking = { current, merged, values, comment, now, automatic: system !== undefined };
      const written = await enterTarget(ctx, trx, actor, entity, transition, taking, origin);
      return readBack(ctx, trx, actor, entity, written);
    }),
  );
}

/**
 * Takes a transition on the engine's authority, as the effect `as: 'system'` of a write on another
 * record, in that write's transaction: no grant, scope or guard about the user; the state it
 * leaves, the fields it requires, its other guards, rules and limits still hold. The user who
 * made the write is still the one written down as changing it.
 */
export async function takeTransitionAsSystem(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  id: number,
  transition: TransitionModel,
  origin: EffectOrigin,
): Promise<RecordData> {
  const current = await lockForEffect(trx, entity, id);
  const now = new Date();
  const merged = await withPathValues(ctx.model, trx, entity, transitionConditions([transition]), current);
  const check = checkTransition(ctx.model, entity, merged, actor, withoutActorGuards(ctx.model, transition), now, true);
  if (!check.allowed) refuse(ctx.model, check);
  return enterTarget(ctx, trx, actor, entity, transition, { current, merged, values: {}, comment: null, now, automatic: false }, origin);
}

/**
 * The write of a transition whose checks passed: its own effects, the state its targets choose
 * (on the record with its input applied), the history, then its effects on referenced records.
 */
async function enterTarget(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  transition: TransitionModel,
  taking: { current: RecordData; merged: RecordData; values: ParsedValues; comment: string | null; now: Date; automatic: boolean },
  origin: EffectOrigin | undefined,
): Promise<RecordData> {
  const { current, merged, values, comment, now, automatic } = taking;
  const workflow = entity.workflow!;
  const effects = effectValues(transition, actor, now);
  // Users set by effects too ("take" makes the actor the assignee): they must meet the field's `roles`.
  const effectUsers = Object.fromEntries(Object.entries(effects).filter(([name]) => entity.fieldsByName[name]?.type === 'user'));
  await checkReferences(ctx.model, trx, entity, { ...values, ...effectUsers } as ParsedValues, actor);

  const to = chooseTarget(ctx.model, transition, merged, actor, now);
  const changes = { ...values, ...effects, [workflow.field]: to };
  const written = await writeLocked(ctx.model, trx, actor, entity, current, changes, now, {
    action: 'transition',
    transition: {
      name: transition.name,
      from: String(current[workflow.field]),
      to,
      comment,
      ...(automatic ? { automatic: true as const } : {}),
    },
    ...(origin ? { cause: origin.cause } : {}),
  });
  const cause = { entity: entity.name, recordId: current.id, action: transition.name };
  await takeReferenceEffects(ctx, trx, actor, entity, written, transition.referenceEffects, nextOrigin(cause, origin), now);
  return written;
}

function workflowEntity(ctx: OpsContext, entityName: string, name: string): { entity: EntityModel; transition: TransitionModel } {
  const entity = entityOf(ctx.model, entityName);
  return { entity, transition: findTransition(entity, name) };
}

export async function transitionRecord(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  id: number,
  name: string,
  request: TransitionRequest,
): Promise<RecordData> {
  const { entity, transition } = workflowEntity(ctx, entityName, name);
  if (!isRecordId(id)) throw notFound(inSentence(entity.label));
  return takeTransition(ctx, actor, entity, id, transition, request, checkVersion(request?.version));
}

/** Each row in its own transaction, so that one refusal neither blocks nor undoes the others. */
export async function bulkTransition(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  name: string,
  items: readonly BulkItem[],
  request: Omit<TransitionRequest, 'version'> = {},
): Promise<BulkTransitionResult[]> {
  const { entity, transition } = workflowEntity(ctx, entityName, name);
  const results = await eachBulkRow(entity, items, (id, version) =>
    takeTransition(ctx, actor, entity, id, transition, request, checkVersion(version)),
  );
  return results.map((result) => (result.ok ? { id: result.id, ok: true, record: result.value } : result));
}

/**
 * Takes each effect on the record its reference field points at in `record` (as written), in
 * order, inside `trx`: a refusal of one is thrown as it is and refuses the whole write. An empty
 * reference has nothing to act on. Each referenced row is locked (FOR UPDATE) before it is read,
 * so concurrent writers of it take turns, and its version goes up like any write's.
 */
export async function takeReferenceEffects(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  record: RecordData,
  effects: readonly ReferenceEffectModel[],
  origin: EffectOrigin,
  now: Date,
): Promise<void> {
  if (effects.length === 0) return;
  if (origin.depth > MAX_EFFECT_DEPTH) {
    throw new NinefoldError('CONFLICT', `The effects of this change on other records go more than ${MAX_EFFECT_DEPTH} records deep.`);
  }
  for (const effect of effects) {
    const id = record[effect.on];
    if (typeof id !== 'number') continue;
    const target = entityOf(ctx.model, effect.target);
    if (effect.kind === 'set') await setOnReferenced(ctx, trx, actor, target, id, effect, origin, now);
    else {
      const transition = findTransition(target, effect.transition);
      if (effect.as === 'system') await takeTransitionAsSystem(ctx, trx, actor, target, id, transition, origin);
      // As if the actor took it themselves: the same path, under a savepoint of this transaction.
      else await takeTransition({ ...ctx, db: trx }, actor, target, id, transition, {}, undefined, origin);
    }
  }
}
