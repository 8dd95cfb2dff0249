import type { EntityModel } from '@/engine/spec/model';
import { enumLabel } from '../format';

/**
 * What a board says after a move: plain data, returned by the server action and rendered again
 * without JavaScript. The words are made on the server; the board only shows them.
 */
export interface BoardMoveState {
  /** "“Big order” moved to Qualified." or why it did not move; null before any move. */
  readonly message: string | null;
  readonly moved: boolean;
}

export const initialBoardMoveState: BoardMoveState = { message: null, moved: false };

/** The card's button posts "<id>:<version>"; the card's target column is in BOARD_TARGET_INPUT-<id>. */
export const BOARD_CARD_INPUT = 'card';
export const boardTargetInput = (id: number) => `to-${id}`;

/** A column's heading: the state's label, or the enum value's. */
export function boardColumnLabel(entity: EntityModel, field: string, value: string): string {
  if (entity.workflow && field === entity.workflow.field) return entity.workflow.states.find((s) => s.name === value)?.label ?? value;
  const spec = entity.fieldsByName[field]?.spec;
  return enumLabel(spec && 'labels' in spec ? spec.labels : undefined, value);
}
