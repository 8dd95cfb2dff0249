import type { BoundOps } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import type { AppModel } from '@/engine/spec/model';
import { shownWidgets } from './shown-widgets';
import { summaryFor } from '@/engine/spec/screens/for-roles';
import { LiveTopics } from '../live/live-topics';
import { DefaultHome } from './default-home';
import { GettingStarted } from './getting-started';
import { Widgets } from './widgets';

/**
 * The start page: the spec's widgets, or counts per entity and state when it declares none; first,
 * for a new administrator with no records yet, what to do next (`gettingStarted`).
 */
export function Home({
  model,
  ops,
  actor,
  zone,
  gettingStarted = false,
}: {
  model: AppModel;
  ops: BoundOps;
  actor: Actor;
  zone: string;
  gettingStarted?: boolean;
}) {
  // The numbers follow the records they count: any readable change to these entities refreshes them.
  const entities = new Set(
    model.home ? shownWidgets(model.home.widgets, ops, actor).map((w) => w.entity) : model.entities.map((e) => e.name),
  );
  // The purpose in the viewer's words: a customer is told what the desk does for them.
  const summary = summaryFor(model, actor);
  return (
    <div>
      <LiveTopics topics={[...entities].map((entity) => ({ entity }))} />
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{model.home?.title ?? model.title}</h1>
      {summary ? <p className="mt-2 max-w-3xl text-sm text-zinc-600">{summary}</p> : null}
      <div className="mt-6">
        {gettingStarted ? <GettingStarted /> : null}
        {model.home ? (
          <Widgets zone={zone} model={model} ops={ops} actor={actor} widgets={model.home.widgets} />
        ) : (
          <DefaultHome model={model} ops={ops} />
        )}
      </div>
    </div>
  );
}
