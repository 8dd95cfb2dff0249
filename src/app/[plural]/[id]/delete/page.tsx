import type { Metadata } from 'next';
import { forbidden, notFound } from 'next/navigation';
import { deleteRecord } from '@/server/actions/records';
import { entityForPlural, recordIdOrNotFound, recordOrNotFound } from '@/server/entity-route';
import { requireActor } from '@/server/session';
import { Breadcrumbs } from '@/ui/breadcrumbs';
import { Card } from '@/ui/card';
import { DeleteForm } from '@/ui/forms/delete-form';
import { PageHeader } from '@/ui/page-header';
import { inSentence } from '@/engine/spec/naming';
import { recordTitle } from '@/engine/ops/record-title';
import { writtenOnlyByCalls } from '@/engine/access/policy';

type Props = { params: Promise<{ plural: string; id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  const { entity } = await entityForPlural(plural);
  return { title: `Delete ${inSentence(entity.label)}` };
}

/** A real page, so deleting works without JavaScript and is never one accidental click away. */
export default async function DeleteRecordPage({ params }: Props) {
  const { plural, id: rawId } = await params;
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  // An entity only the spec's calls write has no such page, for anyone.
  if (writtenOnlyByCalls(entity)) notFound();
  const id = recordIdOrNotFound(rawId);
  const actor = await requireActor(`/${plural}/${rawId}/delete`);
  const { record, references, can } = await recordOrNotFound(engine, actor, entity, id);
  if (!can.delete) forbidden();
  const title = recordTitle(entity, record, references);
  const base = `/${entity.plural}/${record.id}`;

  return (
    <div className="max-w-2xl">
      <PageHeader
        eyebrow={
          <Breadcrumbs
            items={[{ href: `/${entity.plural}`, label: entity.pluralLabel }, { href: base, label: title }, { label: 'Delete' }]}
          />
        }
        title={`Delete this ${inSentence(entity.label)}?`}
      />
      <Card className="p-6">
        <p className="mb-5 text-sm text-zinc-700">
          <span className="font-medium text-zinc-900">{title}</span> will be deleted. This cannot be undone.
        </p>
        <DeleteForm
          action={deleteRecord.bind(null, entity.name, record.id)}
          version={record.version}
          submitLabel={`Delete ${inSentence(entity.label)}`}
          cancelHref={base}
        />
      </Card>
    </div>
  );
}
