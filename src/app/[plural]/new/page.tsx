import type { Metadata } from 'next';
import { forbidden, notFound } from 'next/navigation';
import { createRecord } from '@/server/actions/records';
import { entityForPlural, newRecordLabel } from '@/server/entity-route';
import { describeFormFields } from '@/server/form-fields';
import { defaultFormValue } from '@/server/forms';
import { requireActor } from '@/server/session';
import { Breadcrumbs } from '@/ui/breadcrumbs';
import { Card } from '@/ui/card';
import { RecordForm } from '@/ui/forms/record-form';
import { initialRecordFormState } from '@/ui/forms/state';
import { formChecks } from '@/ui/forms/validation';
import { PageHeader } from '@/ui/page-header';

type Props = { params: Promise<{ plural: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  const { engine, entity } = await entityForPlural(plural);
  return { title: newRecordLabel(engine.model, entity) };
}

export default async function NewRecordPage({ params }: Props) {
  const { plural } = await params;
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  // An entity only the spec's calls write has no such page, for anyone.
  if (entity.writtenBy === 'calls') notFound();
  const actor = await requireActor(`/${plural}/new`);
  const access = engine.ops.access(actor, entity.name);
  if (!access.actions.create) forbidden();
  const fields = access.writable.create.map((name) => entity.fieldsByName[name]);
  const now = new Date();
  const values = Object.fromEntries(fields.map((field) => [field.name, defaultFormValue(field, actor, now)]));
  const descriptors = await describeFormFields({ ops: engine.ops, actor, model: engine.model, entity, fields, values });
  const label = newRecordLabel(engine.model, entity);

  return (
    <div className="max-w-3xl">
      <PageHeader eyebrow={<Breadcrumbs items={[{ href: `/${entity.plural}`, label: entity.pluralLabel }, { label: 'New' }]} />} title={label} />
      <Card className="p-6">
        <RecordForm
          action={createRecord.bind(null, entity.name)}
          initialState={initialRecordFormState(values)}
          fields={descriptors}
          checks={formChecks(engine.model.constants, entity, fields)}
          submitLabel={`Create ${entity.label.toLowerCase()}`}
          cancelHref={`/${entity.plural}`}
        />
      </Card>
    </div>
  );
}
