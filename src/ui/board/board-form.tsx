'use client';

import { useActionState, useRef, type DragEvent, type ReactNode } from 'react';
import { Alert } from '../alert';
import { BOARD_CARD_INPUT, boardTargetInput, initialBoardMoveState, type BoardMoveState } from './board-state';

/** The card a drag event is about, and the column under it. */
function cardOf(event: DragEvent): HTMLElement | null {
  return event.target instanceof Element ? event.target.closest<HTMLElement>('[data-card]') : null;
}
function columnOf(event: DragEvent): string | null {
  return event.target instanceof Element ? (event.target.closest<HTMLElement>('[data-column]')?.dataset.column ?? null) : null;
}

/**
 * The board as one form: each card's "Move" button posts its id and version, and its column
 * select says where (src/server/actions/board.ts), so a move works without JavaScript. With it,
 * a card dropped on a column it may move to (`data-moves`) submits the same form, and the words of
 * the move, or of its refusal, are announced above the board.
 */
export function BoardForm({
  action,
  label,
  children,
}: {
  action: (state: BoardMoveState, formData: FormData) => Promise<BoardMoveState>;
  label: string;
  children: ReactNode;
}) {
  const [state, formAction] = useActionState(action, initialBoardMoveState);
  const dragged = useRef<HTMLElement | null>(null);
  const accepts = (event: DragEvent) => {
    const to = columnOf(event);
    return to !== null && (dragged.current?.dataset.moves?.split(' ') ?? []).includes(to) ? to : null;
  };
  return (
    <form
      action={formAction}
      aria-label={label}
      onDragStart={(event) => {
        dragged.current = cardOf(event);
        if (!dragged.current) return;
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', dragged.current.dataset.card ?? '');
      }}
      onDragOver={(event) => {
        if (accepts(event) === null) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
      }}
      onDrop={(event) => {
        const to = accepts(event);
        const card = dragged.current;
        if (to === null || !card) return;
        event.preventDefault();
        const select = event.currentTarget.elements.namedItem(boardTargetInput(Number(card.dataset.card)));
        const button = card.querySelector<HTMLButtonElement>(`button[name="${BOARD_CARD_INPUT}"]`);
        if (!(select instanceof HTMLSelectElement) || !button) return;
        select.value = to;
        event.currentTarget.requestSubmit(button);
      }}
      onDragEnd={() => {
        dragged.current = null;
      }}
    >
      <p role="status" className={state.moved ? 'mb-3 text-sm text-zinc-700' : 'sr-only'}>
        {state.moved ? state.message : null}
      </p>
      {state.message && !state.moved ? (
        <div className="mb-3">
          <Alert>{state.message}</Alert>
        </div>
      ) : null}
      {children}
    </form>
  );
}
