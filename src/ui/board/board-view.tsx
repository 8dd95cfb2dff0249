import Link from 'next/link';
import type { BoardCard, BoardPage } from '@/engine/ops/types';
import { recordTitle } from '@/engine/ops/record-title';
import type { EntityModel } from '@/engine/spec/model';
import { inSentence } from '@/engine/spec/naming';
import { formatCount, formatSum } from '@/engine/numbers/format';
import { planOffers } from '../record/transition-plan';
import { ColumnValue } from '../cell-value';
import type { ListColumn } from '../columns';
import { BoardForm } from './board-form';
import { BOARD_CARD_INPUT, boardColumnLabel, boardTargetInput, type BoardMoveState } from './board-state';

/**
 * Where a card may go: each column a transition offered to the viewer leads to (blocked ones too,
 * so that the move says why not), or for an enum board every other value when the viewer may
 * update it. `drop` are those worth dropping on: the blocked ones would only be refused.
 */
function targetsOf(entity: EntityModel, field: string, card: BoardCard, writable: ReadonlySet<string>, values: readonly string[]) {
  const here = String(card.record[field]);
  if (!entity.workflow || field !== entity.workflow.field) {
    const all = card.canUpdate ? values.filter((v) => v !== here) : [];
    return { all, drop: all };
  }
  const plans = planOffers(card.transitions, card.record, writable).filter((p) => p.offer.to !== here);
  return {
    all: [...new Set(plans.map((p) => p.offer.to))],
    drop: [...new Set(plans.filter((p) => p.mode !== 'blocked').map((p) => p.offer.to))],
  };
}

/**
 * A list as a board: a labelled column per value of its field, with its count and sum in words,
 * its first cards (the title and the list's next columns) and a link to the rest. Each card that
 * may move has a "Move to" select and button (the keyboard's way, and the way without
 * JavaScript) and can be dragged onto a column it may go to.
 */
export function BoardView({
  entity,
  page,
  columns,
  writable,
  action,
  moreHref,
  zone,
  locale,
}: {
  entity: EntityModel;
  page: BoardPage;
  /** The key fields each card shows under its title. */
  columns: readonly ListColumn[];
  /** What the viewer may write on update (ops.access): a transition asking for one opens the record. */
  writable: ReadonlySet<string>;
  action: (state: BoardMoveState, formData: FormData) => Promise<BoardMoveState>;
  /** The list as a table, filtered to one column's value. */
  moreHref: (value: string) => string;
  zone: string;
  locale: string;
}) {
  const one = inSentence(entity.label);
  const many = inSentence(entity.pluralLabel);
  const sumField = page.sum ? entity.fieldsByName[page.sum] : undefined;
  return (
    <BoardForm action={action} label={`Move ${many}`}>
      {/* Relative: the cards' visually hidden labels are placed within it, so they scroll with it, not widen the page. */}
      <div className="relative flex snap-x gap-3 overflow-x-auto pb-2">
        {page.columns.map((column) => {
          const label = boardColumnLabel(entity, page.field, column.value);
          const id = `column-${column.value}`;
          return (
            <section
              key={column.value}
              aria-labelledby={id}
              data-column={column.value}
              className="w-72 shrink-0 snap-start rounded-lg bg-zinc-100 p-2"
            >
              <h2 id={id} className="px-1 text-sm font-semibold text-zinc-900">
                {label}
              </h2>
              <p className="px-1 text-xs text-zinc-600">
                {formatCount(column.count, locale)} {column.count === 1 ? one : many}
                {sumField && column.sum !== null ? ` · ${formatSum(sumField, column.sum, locale)}` : null}
              </p>
              <ul aria-labelledby={id} className="mt-2 min-h-16 space-y-2">
                {column.cards.map((card) => {
                  const { record } = card;
                  const title = recordTitle(entity, record, page.references);
                  const targets = targetsOf(
                    entity,
                    page.field,
                    card,
                    writable,
                    page.columns.map((c) => c.value),
                  );
                  return (
                    <li
                      key={`${record.id}-${record.version}`}
                      data-card={record.id}
                      data-moves={targets.drop.join(' ')}
                      draggable={targets.drop.length > 0}
                      className="rounded-md bg-white p-2 text-sm shadow-xs ring-1 ring-zinc-200"
                    >
                      <Link href={`/${entity.plural}/${record.id}`} className="font-medium text-zinc-900 hover:underline">
                        {title}
                      </Link>
                      {columns.length > 0 ? (
                        <dl className="mt-1 space-y-0.5 text-xs text-zinc-600">
                          {columns.map((c) => (
                            <div key={c.name} className="flex gap-1">
                              <dt className="sr-only">{c.label}</dt>
                              <dd>
                                <ColumnValue column={c} record={record} references={page.references} zone={zone} locale={locale} />
                              </dd>
                            </div>
                          ))}
                        </dl>
                      ) : null}
                      {targets.all.length > 0 ? (
                        <div className="mt-2 flex items-center gap-1">
                          <label htmlFor={boardTargetInput(record.id)} className="sr-only">
                            Move {title} to
                          </label>
                          <select
                            id={boardTargetInput(record.id)}
                            name={boardTargetInput(record.id)}
                            className="h-7 min-w-0 flex-1 rounded-md border-0 py-0 pl-2 text-xs ring-1 ring-zinc-300 ring-inset"
                          >
                            {targets.all.map((to) => (
                              <option key={to} value={to}>
                                {boardColumnLabel(entity, page.field, to)}
                              </option>
                            ))}
                          </select>
                          <button
                            type="submit"
                            name={BOARD_CARD_INPUT}
                            value={`${record.id}:${record.version}`}
                            aria-label={`Move ${title}`}
                            className="rounded-md px-2 py-1 text-xs font-medium text-accent-700 ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
                          >
                            Move
                          </button>
                        </div>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
              {column.more ? (
                <Link
                  href={moreHref(column.value)}
                  className="mt-2 block px-1 text-xs font-medium text-accent-700 underline underline-offset-2"
                >
                  All {formatCount(column.count, locale)} in {label}
                </Link>
              ) : null}
            </section>
          );
        })}
      </div>
    </BoardForm>
  );
}
