import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { customRouteOrNotFound, isEntityPlural } from '@/server/custom-routes';
import { entityForPlural } from '@/server/entity-route';
import { searchSuffix, type RawSearchParams } from '@/server/list-query';
import { readerOrigin, readerPresentation } from '@/server/reader';
import { requireViewer, signInIfVisitor } from '@/server/viewer';
import { FrontPageView, frontPageMetadata } from './front-page-view';
import { EntityListView } from './entity-list-view';
import { CustomRoutePage } from './custom-route-page';

type Props = { params: Promise<{ plural: string }>; searchParams: Promise<RawSearchParams> };

// One segment is an entity's list, or else a custom route of one segment ("/queue").

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  if (!(await isEntityPlural(plural))) return { title: (await customRouteOrNotFound([plural])).route.title };
  const { engine, entity } = await entityForPlural(plural);
  const presentation = entity.presentation ? readerPresentation(engine, await requireViewer(`/${plural}`), entity) : null;
  return presentation ? frontPageMetadata(engine, entity, presentation, readerOrigin(await headers())) : { title: entity.pluralLabel };
}

export default async function ListPage({ params, searchParams }: Props) {
  const [{ plural }, rawSearch] = await Promise.all([params, searchParams]);
  if (!(await isEntityPlural(plural))) return <CustomRoutePage segments={[plural]} search={rawSearch} />;
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  const here = `/${plural}${searchSuffix(rawSearch)}`;
  const actor = await requireViewer(here);
  if (!engine.ops.access(actor, entity.name).actions.list) signInIfVisitor(actor, here);
  // Readers of a presented entity read a front page instead of the back office's table.
  const presentation = readerPresentation(engine, actor, entity);
  if (presentation) return <FrontPageView engine={engine} actor={actor} entity={entity} presentation={presentation} search={rawSearch} />;
  return (
    <EntityListView
      engine={engine}
      actor={actor}
      entity={entity}
      path={`/${entity.plural}`}
      search={rawSearch}
      title={entity.pluralLabel}
      description={entity.description}
    />
  );
}
