import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { forbidden, notFound } from 'next/navigation';
import { importableFields } from '@/engine/csv/import-columns';
import { sizeText } from '@/engine/csv/read-csv';
import { resolveLimits } from '@/engine/limits';
import { IMPORT_REPORT_HEADER, reportFromHeader } from '@/server/csv/import-report';
import { entityForPlural } from '@/server/entity-route';
import { requireActor } from '@/server/session';
import { Breadcrumbs } from '@/ui/breadcrumbs';
import { Card } from '@/ui/card';
import { ImportColumnsHelp } from '@/ui/csv/import-columns-help';
import { ImportForm } from '@/ui/csv/import-form';
import { IDLE_IMPORT } from '@/ui/csv/import-state';
import { PageHeader } from '@/ui/page-header';
import { inSentence } from '@/engine/spec/naming';
import { writtenOnlyByCalls } from '@/engine/access/policy';
import { mayImport } from '@/server/csv/may-import';

type Props = { params: Promise<{ plural: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { entity } = await entityForPlural((await params).plural);
  return { title: `Import ${inSentence(entity.pluralLabel)}` };
}

/** /<plural>/import: new records from a CSV file, for whoever may create them (src/engine/csv). */
export default async function ImportPage({ params }: Props) {
  const { plural } = await params;
  const { engine, entity } = await entityForPlural(plural);
  // An entity only the spec's calls write has no such page, for anyone.
  if (writtenOnlyByCalls(entity)) notFound();
  const actor = await requireActor(`/${plural}/import`);
  const access = engine.ops.access(actor, entity.name);
  if (!mayImport(engine.ops, actor, entity)) forbidden();
  const many = inSentence(entity.pluralLabel);
  const listHref = `/${entity.plural}`;
  // The report of the form posted without JavaScript, which the server renders this page with.
  const report = reportFromHeader((await headers()).get(IMPORT_REPORT_HEADER)) ?? IDLE_IMPORT;

  return (
    <div className="max-w-4xl">
      <PageHeader
        eyebrow={<Breadcrumbs items={[{ href: listHref, label: entity.pluralLabel }, { label: 'Import' }]} />}
        title={`Import ${many}`}
        description={`Each row of a CSV file becomes a new ${inSentence(entity.label)}, checked as if you created it here. Nothing is written until every row passes, unless you choose to import the good rows.`}
      />
      <div className="space-y-6">
        <Card className="p-6">
          <ImportForm
            report={report}
            runUrl={`/${entity.plural}/import/run`}
            one={inSentence(entity.label)}
            many={many}
            listHref={listHref}
            maxSizeText={sizeText(resolveLimits(engine.model).importMaxBytes)}
          />
        </Card>
        <Card className="p-6">
          <h2 className="text-base font-semibold text-zinc-900">Columns</h2>
          <p className="mt-1 mb-3 text-sm text-zinc-600">
            The first row names the columns, by the labels below or the field names, in any order; comma-, semicolon- or tab-separated.{' '}
            <a href={`/${entity.plural}/import/template.csv`} download className="font-medium text-accent-700 underline underline-offset-2">
              Download a file with this header row
            </a>
            . A file exported from the list imports as it is once its ID, state and time columns are removed.
          </p>
          <ImportColumnsHelp model={engine.model} fields={importableFields(entity, access)} />
        </Card>
      </div>
    </div>
  );
}
