import type { Engine } from '@/engine/engine';
import { asNinefoldError, notFound } from '@/engine/errors/ninefold-error';
import type { Actor } from '@/engine/ground/actor';
import { recordTitle } from '@/engine/ops/record-title';
import type { RecordView } from '@/engine/ops/types';
import { inSentence } from '@/engine/spec/naming';
import { BOARD_CARD_INPUT, boardColumnLabel, boardTargetInput, type BoardMoveState } from '@/ui/board/board-state';
import { planOffers } from '@/ui/record/transition-plan';
import { finalTarget } from '@/ui/record/transition-question';
import { entityNamed } from './entity-named';
import type { Redirect } from './record-actions';
import { refusalMessage } from './refusal-text';

/*
 * A card moved on a board, without Next.js: the server action (src/server/actions/board.ts)
 * resolves the actor, calls this, then shows the words or goes where it says. A state board takes
 * the transition that leads to the column, an enum board updates the field: one ops call decides,
 * with the version the viewer saw. A transition that needs more than a click (a comment, fields
 * to fill in, the confirmation a final state asks for) is not taken here: the record's page
 * offers its form.
 */

export async function submitBoardMove(
  engine: Engine,
  actor: Actor,
  entityName: string,
  formData: FormData,
): Promise<BoardMoveState | Redirect> {
  const entity = entityNamed(engine, entityName);
  const board = entity.list.board;
  if (!board) throw notFound('page');
  const [id, version] = String(formData.get(BOARD_CARD_INPUT) ?? '')
    .split(':')
    .map((part) => (/^\d{1,15}$/.test(part) ? Number(part) : NaN));
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(version)) return refused('Choose a card to move.');
  const to = formData.get(boardTargetInput(id!));
  if (typeof to !== 'string' || !board.values.includes(to)) return refused('Choose the column to move it to.');

  let view: RecordView;
  try {
    view = await engine.ops.get(actor, entity.name, id!);
  } catch (error) {
    // Gone, or out of the viewer's sight since the board was drawn: said in words, not a 404.
    if (asNinefoldError(error)?.code === 'NOT_FOUND') return refused(`This ${inSentence(entity.label)} is no longer on the board.`);
    throw error;
  }
  const title = `“${recordTitle(entity, view.record, view.references)}”`;
  const target = boardColumnLabel(entity, board.field, to);
  if (view.record[board.field] === to) return refused(`${title} is already in ${target}.`);
  const readable = new Set(engine.ops.access(actor, entity.name).readable);
  try {
    if (entity.workflow && board.field === entity.workflow.field) {
      const taken = await takeTransitionTo();
      if (taken !== null) return taken;
    } else {
      await engine.ops.update(actor, entity.name, id!, { [board.field]: to }, version!);
    }
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known || known.code === 'NOT_FOUND') throw error;
    return refused(`${title} was not moved: ${refusalMessage(entity, readable, known, 0, known.fieldErrors)}`);
  }
  return { message: `${title} moved to ${target}.`, moved: true };

  function refused(message: string): BoardMoveState {
    return { message, moved: false };
  }

  /** Null when taken; else why not, or the record's page when its form must ask first. */
  async function takeTransitionTo(): Promise<BoardMoveState | Redirect | null> {
    const offers = view!.transitions.filter((t) => t.to === to);
    const [plan] = planOffers(
      [...offers.filter((t) => t.available), ...offers.filter((t) => !t.available)],
      view!.record,
      new Set(engine.ops.access(actor, entity.name).writable.update),
    );
    const from = boardColumnLabel(entity, board!.field, String(view.record[board!.field]));
    const record = view.record;
    if (!plan) return refused(`${title} cannot move from ${from} to ${target}: no transition of yours leads there.`);
    if (plan.mode === 'blocked') return refused(`${title} was not moved: ${plan.offer.blockedReason ?? 'It cannot be taken now.'}`);
    if (plan.mode === 'input' || plan.offer.comment === 'required' || finalTarget(entity.workflow!, plan.offer.name)) {
      return { redirectTo: `/${entity.plural}/${record.id}#transitions-heading` };
    }
    await engine.ops.transition(actor, entity.name, record.id, plan.offer.name, { version: version! });
    return null;
  }
}
