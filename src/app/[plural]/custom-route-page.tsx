import type { ReactNode } from 'react';
import RecordPage from './[id]/page';
import { bindOps } from '@/engine/ops/ops';
import type { RouteComponentProps } from '@/engine/spec/types';
import { openCustomRoute } from '@/server/custom-routes';
import { searchSuffix, type RawSearchParams } from '@/server/list-query';
import { viewerZone } from '@/server/viewer-zone';
import { Widgets } from '@/ui/home/widgets';
import { LiveTopics } from '@/ui/live/live-topics';
import { EntityListView } from './entity-list-view';
import { PageHeader } from '@/ui/page-header';
import { knownEntity } from '@/ui/known-names';

/**
 * The engine types a spec's component as a function returning `unknown` (it stays free of
 * React); here, at the door, it is what it is declared to be: a React Server Component.
 */
type SpecComponent = (props: RouteComponentProps) => ReactNode | Promise<ReactNode>;

/**
 * A custom route of `screens.routes` at these address segments, for the signed-in viewer its
 * roles allow: a list with fixed filters, one record's page, a dashboard, or the spec's component.
 */
export async function CustomRoutePage({
  segments,
  search,
}: {
  /** The address's segments as Next.js hands them over (percent-encoded). */
  segments: readonly string[];
  search: RawSearchParams;
}) {
  const { engine, actor, route, params, address } = await openCustomRoute(segments, searchSuffix(search));
  const show = route.show;
  const description = route.description ?? undefined;
  switch (show.kind) {
    case 'list': {
      const entity = knownEntity(engine.model, show.entity);
      return (
        <EntityListView
          engine={engine}
          actor={actor}
          entity={entity}
          path={address}
          search={search}
          title={route.title}
          description={description}
          fixed={{
            ...(show.where ? { where: show.where, params } : {}),
            ...(show.sort ? { sort: show.sort } : {}),
            ...(show.columns ? { columns: show.columns } : {}),
          }}
        />
      );
    }
    case 'record': {
      const entity = knownEntity(engine.model, show.entity);
      // The record's own page, as if opened at /<plural>/<id>: the same access, sections and actions.
      const recordParams = Promise.resolve({ plural: entity.plural, id: String(params[show.idParam]) });
      return <RecordPage params={recordParams} searchParams={Promise.resolve(search)} />;
    }
    case 'widgets':
      return (
        <div>
          <PageHeader title={route.title} description={description} />
          <LiveTopics topics={[...new Set(show.widgets.map((w) => w.entity))].map((entity) => ({ entity }))} />
          <Widgets
            zone={await viewerZone()}
            model={engine.model}
            ops={bindOps(engine.ops, actor)}
            actor={actor}
            widgets={show.widgets}
            params={params}
          />
        </div>
      );
    case 'component': {
      const Component = show.component as SpecComponent;
      return (
        <div>
          <PageHeader title={route.title} description={description} />
          <Component params={params} actor={actor} ops={bindOps(engine.ops, actor)} />
        </div>
      );
    }
  }
}
