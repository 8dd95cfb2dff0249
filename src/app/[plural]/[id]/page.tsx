import type { Metadata } from 'next';
import { humanize } from '@/engine/spec/naming';
import { entityForPlural, recordIdOrNotFound, recordOrNotFound } from '@/server/entity-route';
import { requireActor } from '@/server/session';
import { Breadcrumbs } from '@/ui/breadcrumbs';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { ColumnValue } from '@/ui/cell-value';
import { resolveColumn, type ListColumn } from '@/ui/columns';
import { PageHeader } from '@/ui/page-header';
import { RecordDetails } from '@/ui/record-details';
import { recordTitle } from '@/ui/record-title';
import { StateBadge } from '@/ui/state-badge';

type Props = { params: Promise<{ plural: string; id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  const { entity } = await entityForPlural(plural);
  return { title: entity.label };
}

const SYSTEM = ['id', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'] as const;

export default async function RecordPage({ params }: Props) {
  const { plural, id: rawId } = await params;
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  const id = recordIdOrNotFound(rawId);
  const actor = await requireActor(`/${plural}/${rawId}`);
  const { record, references } = await recordOrNotFound(engine, actor, entity, id);

  const resolve = (name: string) => resolveColumn(engine.model, entity, name);
  const access = engine.ops.access(actor, entity.name);
  const fieldColumns = access.readable
    .map((name) => resolve(name))
    .filter((c): c is ListColumn => c !== null);
  const systemColumns = SYSTEM.map(resolve).filter((c): c is ListColumn => c !== null);
  const title = recordTitle(entity, record);
  const base = `/${entity.plural}/${record.id}`;

  return (
    <div>
      <PageHeader
        eyebrow={<Breadcrumbs items={[{ href: `/${entity.plural}`, label: entity.pluralLabel }, { label: `#${record.id}` }]} />}
        title={title}
        badge={entity.workflow ? <StateBadge workflow={entity.workflow} state={record[entity.workflow.field]} /> : null}
        actions={
          <>
            {access.actions.update ? <ButtonLink href={`${base}/edit`}>Edit</ButtonLink> : null}
            {access.actions.delete ? (
              <ButtonLink href={`${base}/delete`} variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800">
                Delete
              </ButtonLink>
            ) : null}
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        {fieldColumns.length > 0 ? (
          <Card className="p-5 lg:col-span-2">
            <RecordDetails columns={fieldColumns} record={record} references={references} />
          </Card>
        ) : null}
        <Card className="h-fit p-5 lg:col-start-3">
          <dl className="space-y-3 text-sm">
            {entity.workflow ? (
              <div className="flex items-center justify-between gap-4">
                <dt className="text-zinc-500">{humanize(entity.workflow.field)}</dt>
                <dd>
                  <StateBadge workflow={entity.workflow} state={record[entity.workflow.field]} />
                </dd>
              </div>
            ) : null}
            {systemColumns.map((column) => (
              <div key={column.name} className="flex items-center justify-between gap-4">
                <dt className="text-zinc-500">{column.label}</dt>
                <dd className="text-right text-zinc-900">
                  <ColumnValue column={column} record={record} references={references} variant="detail" />
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </div>
  );
}
