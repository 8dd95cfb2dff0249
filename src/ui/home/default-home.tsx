import Link from 'next/link';
import type { BoundOps } from '@/engine/ops/ops';
import type { AppModel, EntityModel } from '@/engine/spec/model';
import { formatCount } from '@/engine/numbers/format';
import { filteredListHref } from './list-href';
import { unlessRefused } from './refused';

/**
 * The home of a spec without `screens.home`: for each entity of the navigation the viewer may
 * list, how many records they may see and how many are in each state, each a link.
 */
export function DefaultHome({ model, ops }: { model: AppModel; ops: BoundOps }) {
  // As in the navigation: records listed only through a parent are counted on the parent's page.
  const entities = model.navigation.filter((entity) => {
    const access = ops.access(entity.name);
    return access.actions.list && access.listedVia === null;
  });
  if (entities.length === 0) return null;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {entities.map((entity) => (
        <EntityCounts key={entity.name} entity={entity} ops={ops} locale={model.locale} />
      ))}
    </ul>
  );
}

async function EntityCounts({ entity, ops, locale }: { entity: EntityModel; ops: BoundOps; locale: string }) {
  const workflow = entity.workflow;
  const totals = await unlessRefused(ops.groupTotals(entity.name, workflow ? { by: workflow.field } : {}));
  if (!totals) return null;
  const perState = new Map(totals.groups.map((g) => [g.value, g.amount]));
  return (
    <li className="min-w-0 rounded-lg border border-zinc-200 bg-white p-5 shadow-xs">
      <Link href={`/${entity.plural}`} className="group block">
        <span className="block text-sm font-semibold text-zinc-900 group-hover:text-accent-700 group-hover:underline">
          {entity.pluralLabel}
        </span>
        <span className="mt-1 block text-2xl font-semibold text-zinc-900 tabular-nums">{formatCount(totals.total, locale)}</span>
      </Link>
      {entity.description ? <p className="mt-1 text-sm text-zinc-600">{entity.description}</p> : null}
      {workflow ? (
        <ul className="mt-3 flex flex-wrap gap-2 text-xs">
          {workflow.states.map((state) => {
            const count = formatCount(perState.get(state.name) ?? 0, locale);
            const href = filteredListHref(entity, { [workflow.field]: state.name });
            const text = (
              <>
                {state.label} <span className="font-semibold tabular-nums">{count}</span>
              </>
            );
            const chip = 'inline-block rounded-full border border-zinc-200 px-2.5 py-1 text-zinc-700';
            return (
              <li key={state.name}>
                {href ? (
                  <Link href={href} className={`${chip} hover:border-accent-200 hover:bg-accent-50/40`}>
                    {text}
                  </Link>
                ) : (
                  <span className={chip}>{text}</span>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
}
