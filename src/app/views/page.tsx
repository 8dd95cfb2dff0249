import type { Metadata } from 'next';
import Link from 'next/link';
import { deleteViewAction, renameViewAction, shareViewAction } from '@/server/actions/views';
import { getEngine } from '@/server/engine';
import { roleOptions } from '@/server/roles';
import { requireActor } from '@/server/session';
import { openableViewsByEntity, type OpenableView } from '@/server/views';
import type { EntityModel } from '@/engine/spec/model';
import { humanize } from '@/engine/spec/naming';
import { Badge } from '@/ui/badge';
import { EmptyState } from '@/ui/empty-state';
import { PageHeader } from '@/ui/page-header';
import { DeleteViewForm, RenameViewForm, ShareViewForm } from '@/ui/list/view-forms';
import { isAdmin } from '@/engine/access/policy';
import { knownEntity } from '@/ui/known-names';

export const metadata: Metadata = { title: 'Saved views' };

/** What a view shows, in a few words: its filters, search, order and columns. */
function summary(entity: EntityModel, { state }: OpenableView): string {
  const label = (name: string) => entity.fieldsByName[name]?.label ?? humanize(name);
  const parts = [
    ...(Object.keys(state.filters).length > 0 ? [`filtered by ${Object.keys(state.filters).map(label).join(', ')}`] : []),
    ...(state.q ? [`search “${state.q}”`] : []),
    ...(state.sort
      ? [
          `sorted by ${state.sort
            .split(',')
            .map((s) => `${label(s.replace(/^-/, ''))}${s.startsWith('-') ? ' (descending)' : ''}`)
            .join(', ')}`,
        ]
      : []),
    ...(state.columns.length > 0 ? [`${state.columns.length} chosen column${state.columns.length === 1 ? '' : 's'}`] : []),
  ];
  const text = parts.length > 0 ? parts.join(' · ') : 'the whole list';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The signed-in user's saved views (rename, share, delete) and those shared with them. */
export default async function SavedViewsPage() {
  const actor = await requireActor('/views');
  const engine = await getEngine();
  const byEntity = await openableViewsByEntity(engine, actor);
  const admin = isAdmin(actor);
  const roles = roleOptions(engine.model);
  const roleLabel = new Map(roles.map((r) => [r.name, r.label]));
  // Only views of the model's entities are openable (openableViewsByEntity leaves out the others).
  const sections = [...byEntity].map(([name, views]) => ({ entity: knownEntity(engine.model, name), views }));

  return (
    <div>
      <PageHeader
        title="Saved views"
        description="Lists you saved under a name, with their filters, search, order and columns. Save one from any list with “Save view”; it then appears under the list in the navigation."
      />
      {sections.length === 0 ? (
        <EmptyState title="No saved views yet.">
          <p className="text-sm text-zinc-600">Open a list, set its filters and columns, then choose “Save view”.</p>
        </EmptyState>
      ) : (
        <div className="space-y-8">
          {sections.map(({ entity, views }) => (
            <section key={entity.name} aria-labelledby={`views-${entity.name}`}>
              <h2 id={`views-${entity.name}`} className="mb-3 text-base font-semibold text-zinc-900">
                {entity.pluralLabel}
              </h2>
              <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white shadow-xs">
                {views.map((item) => {
                  const { view, href } = item;
                  return (
                    <li key={view.id} id={`view-${view.id}`} data-view={view.name} className="space-y-3 p-4">
                      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                        <Link href={href} className="font-medium break-words text-accent-700 underline-offset-2 hover:underline">
                          {view.name}
                        </Link>
                        {view.mine ? null : <Badge>Shared with you</Badge>}
                        {view.mine && view.sharedWith.length > 0 ? (
                          <Badge tone="accent">Shared with {view.sharedWith.map((r) => roleLabel.get(r) ?? r).join(', ')}</Badge>
                        ) : null}
                      </div>
                      <p className="text-sm text-zinc-600">{summary(entity, item)}</p>
                      {view.mine ? (
                        <div className="grid gap-4 sm:grid-cols-2">
                          <RenameViewForm action={renameViewAction} id={view.id} name={view.name} />
                          {admin ? (
                            <ShareViewForm action={shareViewAction} id={view.id} name={view.name} roles={roles} shared={view.sharedWith} />
                          ) : null}
                          <div className="sm:col-span-2">
                            <DeleteViewForm action={deleteViewAction} id={view.id} name={view.name} />
                          </div>
                        </div>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
