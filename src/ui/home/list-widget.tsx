import Link from 'next/link';
import type { BoundOps } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import type { AppModel } from '@/engine/spec/model';
import { LIST_WIDGET_COUNT_CAP } from '@/engine/spec/screens/home';
import { type ListWidgetModel } from '@/engine/spec/screens/home-model';
import { ColumnValue } from '../cell-value';
import { resolveColumn, type ListColumn } from '../columns';
import { recordTitle } from '@/engine/ops/record-title';
import { formatCount } from '@/engine/numbers/format';
import { unlessRefused } from './refused';
import { seeAllHref } from './see-all-href';
import { WidgetCard } from './widget-card';
import { knownEntity } from '../known-names';
import { entityFor } from '@/engine/spec/screens/for-roles';

/**
 * Up to `limit` records matching the widget's condition, each a link with its key fields on a
 * line below (it reads on a phone without a table), and how many match in all.
 */
export async function ListWidget({
  model,
  ops,
  actor,
  widget,
  params,
  zone,
}: {
  model: AppModel;
  ops: BoundOps;
  actor: Actor;
  widget: ListWidgetModel;
  params?: Readonly<Record<string, string | number | boolean>>;
  /** The viewer's zone (src/server/viewer-zone.ts), for date-times. */
  zone: string;
}) {
  // The viewer's own words for states, their list's filters for "See all".
  const entity = entityFor(knownEntity(model, widget.entity), actor);
  const query = { ...(widget.where ? { where: widget.where, params } : {}) };
  const loaded = await unlessRefused(
    Promise.all([
      ops.list(entity.name, { ...query, sort: widget.sort, limit: widget.limit }),
      ops.count(entity.name, query, LIST_WIDGET_COUNT_CAP),
    ]),
  );
  if (!loaded) return null;
  const [page, count] = loaded;
  const readable = new Set(ops.access(entity.name).readable);
  const columns = widget.columns
    .filter((name) => name !== entity.titleField)
    .map((name) => resolveColumn(model, entity, name))
    .filter((c): c is ListColumn => c !== null && (c.kind !== 'field' || readable.has(c.name)));
  const href = seeAllHref(model, widget, actor);
  const counted = `${formatCount(count.count, model.locale)}${count.more ? '+' : ''}`;
  return (
    <WidgetCard title={widget.title} more={href && count.count > 0 ? { href, label: `See all ${counted}` } : null}>
      {page.rows.length === 0 ? (
        <p className="text-sm text-zinc-500">Nothing here.</p>
      ) : (
        <>
          {href ? null : <p className="mb-2 text-xs text-zinc-500">{counted} in all</p>}
          <ul className="divide-y divide-zinc-100">
            {page.rows.map((record) => (
              <li key={record.id} className="py-2 first:pt-0 last:pb-0">
                <Link
                  href={`/${entity.plural}/${record.id}`}
                  className="block truncate text-sm font-medium text-zinc-900 hover:text-accent-700 hover:underline"
                >
                  {recordTitle(entity, record, page.references)}
                </Link>
                <dl className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-600">
                  {columns.map((column) => (
                    <div key={column.name} className="flex min-w-0 items-center gap-1">
                      <dt className="text-zinc-500">{column.label}:</dt>
                      <dd className="min-w-0">
                        <ColumnValue zone={zone} locale={model.locale} column={column} record={record} references={page.references} />
                      </dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </>
      )}
    </WidgetCard>
  );
}
