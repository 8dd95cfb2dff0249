import type { Metadata } from 'next';
import { entityForPlural } from '@/server/entity-route';
import { searchSuffix, type RawSearchParams } from '@/server/list-query';
import { requireActor } from '@/server/session';
import { EntityListView } from '@/ui/list/entity-list-view';

type Props = { params: Promise<{ plural: string }>; searchParams: Promise<RawSearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  const { entity } = await entityForPlural(plural);
  return { title: entity.pluralLabel };
}

export default async function ListPage({ params, searchParams }: Props) {
  const [{ plural }, rawSearch] = await Promise.all([params, searchParams]);
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  const actor = await requireActor(`/${plural}${searchSuffix(rawSearch)}`);
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
