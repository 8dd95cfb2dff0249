import type { Metadata } from 'next';
import { customRouteOrNotFound } from '@/server/custom-routes';
import type { RawSearchParams } from '@/server/list-query';
import { CustomRoutePage } from '../../custom-route-page';

// Addresses of three segments or more that no built-in page takes (a record's edit and delete
// pages are matched first): only custom routes live here ("/organizations/{id}/open").

type Props = { params: Promise<{ plural: string; id: string; rest: string[] }>; searchParams: Promise<RawSearchParams> };

function segmentsOf({ plural, id, rest }: { plural: string; id: string; rest: string[] }): string[] {
  return [plural, id, ...rest];
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await customRouteOrNotFound(segmentsOf(await params))).route.title };
}

export default async function CustomRoute({ params, searchParams }: Props) {
  const [segments, search] = await Promise.all([params.then(segmentsOf), searchParams]);
  return <CustomRoutePage segments={segments} search={search} />;
}
