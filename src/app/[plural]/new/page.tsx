import type { Metadata } from 'next';
import { forbidden, notFound } from 'next/navigation';
import { isVisitor } from '@/engine/access/visitor';
import { createRecord } from '@/server/actions/records';
import { viewerZone } from '@/server/viewer-zone';
import { entityForPlural } from '@/server/entity-route';
import { newRecordLabel } from '@/engine/spec/new-record-label';
import { describeFormFields } from '@/server/form-fields';
import { defaultFormValue } from '@/server/forms';
import { SENT_PARAM } from '@/server/record-actions';
import { requireViewer, signInIfVisitor } from '@/server/viewer';
import { SentConfirmation } from '@/ui/forms/sent-confirmation';
import { Breadcrumbs } from '@/ui/breadcrumbs';
import { Card } from '@/ui/card';
import { RecordForm } from '@/ui/forms/record-form';
import { initialRecordFormState } from '@/ui/forms/state';
import { formChecks } from '@/ui/forms/validation';
import { PageHeader } from '@/ui/page-header';
import { inSentence } from '@/engine/spec/naming';
import { writtenOnlyByCalls } from '@/engine/access/policy';
import { knownFields } from '@/ui/known-names';

type Props = { params: Promise<{ plural: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  const { engine, entity } = await entityForPlural(plural);
  return { title: newRecordLabel(engine.model, entity) };
}

export default async function NewRecordPage({ params, searchParams }: Props) {
  const [{ plural }, search] = await Promise.all([params, searchParams]);
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  // An entity only the spec's calls write has no such page, for anyone.
  if (writtenOnlyByCalls(entity)) notFound();
  const actor = await requireViewer(`/${plural}/new`);
  const access = engine.ops.access(actor, entity.name);
  if (!access.actions.create) {
    signInIfVisitor(actor, `/${plural}/new`);
    forbidden();
  }
  // Sent by someone who may not read what they sent (a visitor's contact form): say it arrived.
  if (search[SENT_PARAM] === '1') return <SentConfirmation entity={entity} />;
  const fields = knownFields(entity, access.writable.create);
  const now = new Date();
  // A reference may start at the actor's own record (`default: { own }`), which only the database knows.
  const own = await engine.ops.createDefaults(actor, entity.name);
  const zone = await viewerZone();
  const values = Object.fromEntries(fields.map((field) => [field.name, defaultFormValue(field, actor, now, zone, own)]));
  const descriptors = await describeFormFields({ ops: engine.ops, actor, model: engine.model, entity, fields, values, zone });
  const label = newRecordLabel(engine.model, entity);
  // Where the form leads back to: the list, for whoever may open it (a visitor's contact form has none).
  const listHref = isVisitor(actor) && !access.actions.list ? null : `/${entity.plural}`;

  return (
    <div className="max-w-3xl">
      <PageHeader
        eyebrow={listHref ? <Breadcrumbs items={[{ href: listHref, label: entity.pluralLabel }, { label: 'New' }]} /> : undefined}
        title={label}
      />
      <Card className="p-6">
        <RecordForm
          action={createRecord.bind(null, entity.name)}
          initialState={initialRecordFormState(values)}
          fields={descriptors}
          checks={formChecks(engine.model, entity, fields)}
          submitLabel={`Create ${inSentence(entity.label)}`}
          cancelHref={listHref ?? '/'}
        />
      </Card>
    </div>
  );
}
