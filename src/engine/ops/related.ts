import { finalStateError, isFinal } from './final-state';
import { NinefoldError } from '../errors/ninefold-error';
import type { EntityModel, TransitionModel } from '../spec/model';
import { sectionsShowing } from '../spec/screens/details';
import type { DynamicDatabase } from '../store/types';
import { checkTransition, transitionConditions } from '../workflow/transitions';
import { withPathValues } from './path-values';
import type { OpsContext } from './context';
import type { ParsedValues } from '../rules/record-input';
import { recordColumns, rowToRecord } from './records';
import { takeTransition } from './transition';
import { grantedOn } from './transition-offers';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';
import { indefinite } from '../spec/naming';

/** A transition of the record a new related record points at, to take once it is inserted. */
export interface ParentStep {
  readonly parent: EntityModel;
  readonly id: number;
  readonly transition: TransitionModel;
}

/**
 * What creating a record means for the records its references point at, where a detail page
 * shows it as related (a comment under its ticket), checked inside the create's transaction
 * with each such record locked (a ticket closing meanwhile waits): a record in a final state
 * takes no new related records unless its section says `addWhenFinal`; and the transition the
 * reply takes, if any: the one chosen (`replyWith`, which must be offered by the section), or
 * else the first of the section's `transitions` that names the actor (by a user field of the
 * record or a role) and is available to them now.
 */
export async function parentSteps(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  values: ParsedValues,
  replyWith: string | undefined,
): Promise<ParentStep[]> {
  const steps: ParentStep[] = [];
  let chosenOffered = false;
  for (const field of entity.fields) {
    const id = values[field.name];
    if (field.type !== 'reference' || typeof id !== 'number') continue;
    const sections = sectionsShowing(ctx.model.entities, entity.name, field.name);
    const parent = sections[0]?.parent;
    if (!parent?.workflow) continue;
    // Read whole, not redacted: it was checked readable (checkReferences), and the checks below need its user fields.
    const row = await trx.selectFrom(parent.table).select(recordColumns(parent)).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) continue;
    const record = rowToRecord(parent, row);
    if (isFinal(parent, record) && !sections.some((s) => s.section.addWhenFinal)) throw finalStateError(ctx.model, parent);
    if (replyWith !== undefined) {
      const offered = sections.some((s) => s.section.replyWith.includes(replyWith));
      chosenOffered ||= offered;
      if (offered) steps.push({ parent, id, transition: parent.workflow.transitions.find((t) => t.name === replyWith)! });
      continue;
    }
    const automatic = await automaticTransition(
      ctx,
      trx,
      actor,
      parent,
      record,
      sections.map((s) => s.section.transitions),
    );
    if (automatic) steps.push({ parent, id, transition: automatic });
  }
  if (replyWith !== undefined && !chosenOffered) {
    const message = `"${replyWith}" is not a transition ${indefinite(entity.label)} can take with it.`;
    throw new NinefoldError('VALIDATION_FAILED', message, { fieldErrors: [{ field: 'replyWith', code: 'invalid', message }] });
  }
  return steps;
}

/** The first transition named for the actor that is available to them on the record now, if any. */
async function automaticTransition(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  parent: EntityModel,
  record: RecordData,
  declared: readonly Readonly<Record<string, readonly string[]>>[],
): Promise<TransitionModel | null> {
  const now = new Date();
  for (const transitions of declared) {
    for (const [who, candidates] of Object.entries(transitions)) {
      const names = parent.fieldsByName[who]?.type === 'user' ? record[who] === actor.userId : actor.roles.includes(who);
      if (!names) continue;
      for (const name of candidates) {
        const transition = parent.workflow!.transitions.find((t) => t.name === name);
        if (!transition || !transition.from.includes(String(record[parent.workflow!.field]))) continue;
        const granted = await grantedOn(ctx.model, trx, parent, actor, transition.name, record.id);
        if (!granted) continue;
        const withPaths = await withPathValues(ctx.model, trx, parent, transitionConditions([transition]), record);
        if (checkTransition(ctx.model, parent, withPaths, actor, transition, now, true).allowed) return transition;
      }
    }
  }
  return null;
}

/** Takes the steps, in the create's transaction: a refusal undoes the new record too. */
export async function takeParentSteps(ctx: OpsContext, trx: DynamicDatabase, actor: Actor, steps: readonly ParentStep[]): Promise<void> {
  for (const step of steps) await takeTransition({ ...ctx, db: trx }, actor, step.parent, step.id, step.transition, {}, undefined);
}
