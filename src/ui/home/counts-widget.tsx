import Link from 'next/link';
import type { BoundOps } from '@/engine/ops/ops';
import type { AppModel } from '@/engine/spec/model';
import type { CountsWidgetModel } from '@/engine/spec/screens/home-model';
import { formatCount, formatSum } from '@/engine/numbers/format';
import { filteredListHref } from './list-href';
import { unlessRefused } from './refused';
import { valueLabel } from './value-label';
import { WidgetCard } from './widget-card';
import { knownEntity } from '../known-names';
import type { Actor } from '@/engine/ground/actor';
import { entityFor } from '@/engine/spec/screens/for-roles';

/**
 * Counts (or sums) per value as a grid of tiles, each a link to the list filtered by that value.
 * A widget's `where` cannot be put in a list's address, so the link filters by the value only.
 */
export async function CountsWidget({
  model,
  ops,
  actor,
  widget,
  params,
}: {
  model: AppModel;
  ops: BoundOps;
  actor: Actor;
  widget: CountsWidgetModel;
  params?: Readonly<Record<string, string | number | boolean>>;
}) {
  // Tiles read as the viewer's own words for states, and link by the filters of their own list.
  const entity = entityFor(knownEntity(model, widget.entity), actor);
  const totals = await unlessRefused(
    ops.groupTotals(entity.name, {
      by: widget.by,
      ...(widget.sum ? { sum: widget.sum } : {}),
      ...(widget.where ? { where: widget.where, params } : {}),
    }),
  );
  if (!totals) return null;
  // A sum of money reads as money ("€38,533.32"); a count, or another sum, as a number.
  const summed = widget.sum ? entity.fieldsByName[widget.sum] : undefined;
  const amountText = (amount: number) => (widget.sum ? formatSum(summed, amount, model.locale) : formatCount(amount, model.locale));
  const found = new Map(totals.groups.map((g) => [g.value, g.amount]));
  // Declared values in their order (a state no record is in shows 0), then the others found.
  const values: (string | null)[] = [
    ...(widget.values ?? []),
    ...totals.groups.map((g) => g.value).filter((v) => !widget.values?.includes(v ?? '')),
  ];
  const tiles = values.map((value) => {
    const amount = found.get(value) ?? 0;
    const label = valueLabel(entity, widget.by, value, totals.titles);
    const href = value === null ? null : filteredListHref(entity, { [widget.by]: value });
    return { key: value ?? '', amount, label, href };
  });
  return (
    <WidgetCard title={widget.title} more={{ href: `/${entity.plural}`, label: 'See all' }}>
      <p className="text-xs text-zinc-500">
        {widget.sum ? 'Total' : 'In all'}: <span className="font-medium text-zinc-700 tabular-nums">{amountText(totals.total)}</span>
      </p>
      <ul className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
        {tiles.map((tile) => {
          // The label comes first in the page, a space apart, so that the visible words are the
          // link's name ("Open 12" in "Open: 12"); the column is reversed to show the number on top.
          const body = (
            <>
              <span className="block truncate text-xs text-zinc-600">{tile.label}</span>{' '}
              <span className="block text-xl font-semibold text-zinc-900 tabular-nums">{amountText(tile.amount)}</span>
            </>
          );
          const box = 'flex flex-col-reverse rounded-md border border-zinc-200 px-3 py-2';
          return (
            <li key={tile.key}>
              {tile.href ? (
                <Link
                  href={tile.href}
                  aria-label={`${tile.label}: ${amountText(tile.amount)}`}
                  className={`${box} transition-colors hover:border-accent-200 hover:bg-accent-50/40`}
                >
                  {body}
                </Link>
              ) : (
                <div className={box}>{body}</div>
              )}
            </li>
          );
        })}
      </ul>
    </WidgetCard>
  );
}
