import Link from 'next/link';
import type { ReactNode } from 'react';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { sameListState } from '@/engine/views/list-state';
import { saveViewAction, updateViewAction } from '@/server/actions/views';
import { COLUMN_FORM, listAddress, listStateOf, type ListParams } from '@/server/list-query';
import { openable } from '@/server/views';
import { Alert } from '@/ui/alert';
import { ColumnChooser, type ColumnChoice } from '@/ui/list/column-chooser';
import { SaveViewForm, UpdateViewForm } from '@/ui/list/view-forms';

/**
 * Above a list, in one row with what it is given first (the filters and the count): which saved
 * view it is (when its address is one), saving it as a view, and the column chooser. Saving is offered on an entity's own list only: a custom route's fixed
 * condition is not part of the address, so a view of it would show another list.
 */
export async function ListViewsBar({
  engine,
  actor,
  entity,
  path,
  params,
  savable,
  choices,
  shown,
  defaults,
  droppedColumns,
  children,
}: {
  engine: Engine;
  actor: Actor;
  entity: EntityModel;
  path: string;
  params: ListParams;
  savable: boolean;
  choices: readonly ColumnChoice[];
  shown: readonly string[];
  defaults: readonly string[];
  /** How many columns of the address were left out (unknown, or not readable by the viewer). */
  droppedColumns: number;
  /** The row's start: the list's filters and count. */
  children?: ReactNode;
}) {
  const current = listStateOf(params);
  const views = savable ? (await engine.views.list(actor, entity.name)).map((view) => openable(engine, actor, entity, view)) : [];
  const active = views.find((v) => sameListState(v.state, current)) ?? null;
  const query = listAddress('', { ...params, cursor: '' }).replace(/^\?/, '');
  // What the column chooser's form carries along without JavaScript: the list's other settings.
  const keep = [...new URLSearchParams(listAddress('', { ...params, cursor: '', columns: [] }).replace(/^\?/, ''))];
  const own = views.filter((v) => v.view.mine);
  return (
    <div className="mb-3 space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        {children}
        {/* Positioned: the "Save view" panel opens from the row's right edge, on a phone's screen too. */}
        <div className="relative ml-auto flex items-center gap-2">
          {active ? (
            <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm text-zinc-700" data-active-view={active.view.name}>
              <span>
                Saved view: <strong className="font-semibold text-zinc-900">{active.view.name}</strong>
                {active.view.mine ? null : <span className="text-zinc-600"> (shared with you)</span>}
              </span>
              <Link href="/views" className="text-accent-700 underline underline-offset-2 hover:text-accent-800">
                Manage views
              </Link>
            </p>
          ) : savable ? (
            <SaveViewForm action={saveViewAction} entity={entity.name} query={query}>
              {own.length > 0 ? (
                <div className="space-y-2 border-t border-zinc-100 pt-3">
                  <p className="text-xs font-medium text-zinc-600">Or put this list in one of your views</p>
                  <ul className="max-h-48 space-y-2 overflow-y-auto">
                    {own.map(({ view }) => (
                      <li key={view.id}>
                        <UpdateViewForm action={updateViewAction} id={view.id} query={query} name={view.name} />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </SaveViewForm>
          ) : null}
          <ColumnChooser choices={choices} shown={shown} defaults={defaults} action={path} keep={keep} form={COLUMN_FORM} />
        </div>
      </div>
      {droppedColumns > 0 ? (
        <Alert tone="info">
          {droppedColumns === 1
            ? 'A column in the address is not available to you and is not shown.'
            : `${droppedColumns} columns in the address are not available to you and are not shown.`}
        </Alert>
      ) : null}
    </div>
  );
}
