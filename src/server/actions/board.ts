'use server';

import { revalidatePath } from 'next/cache';
import { notFound, redirect } from 'next/navigation';
import type { BoardMoveState } from '@/ui/board/board-state';
import { submitBoardMove } from '../board-moves';
import { getEngine } from '../engine';
import { asNinefoldError } from '../errors';
import { isRedirect } from '../record-actions';
import { requireActor } from '../session';

/*
 * The board's door: resolve the actor, run the plain action (src/server/board-moves.ts, one ops
 * call), then have the board drawn again with the card in its new column, or go to the record's
 * page when its transition asks for more. The entity is bound by the page; the card and column
 * come from the browser, so the plain action and ops check them again.
 */
export async function moveBoardCard(entityName: string, _state: BoardMoveState, formData: FormData): Promise<BoardMoveState> {
  const actor = await requireActor();
  const engine = await getEngine();
  let result;
  try {
    result = await submitBoardMove(engine, actor, entityName, formData);
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') notFound();
    throw error;
  }
  if (isRedirect(result)) redirect(result.redirectTo);
  if (result.moved) revalidatePath(`/${engine.model.entitiesByName[entityName]!.plural}`);
  return result;
}
