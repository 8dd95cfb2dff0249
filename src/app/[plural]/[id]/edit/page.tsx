import { computedViews } from '@/server/computed-views';
import type { Metadata } from 'next';
import { forbidden, notFound } from 'next/navigation';
import { updateRecord } from '@/server/actions/records';
import { viewerZone } from '@/server/viewer-zone';
import { entityForPlural, recordIdOrNotFound, recordOrNotFound } from '@/server/entity-route';
import { describeFormFields } from '@/server/form-fields';
import { toFormValue } from '@/server/forms';
import { seenValues } from '@/server/seen-values';
import { requireActor } from '@/server/session';
import { Breadcrumbs } from '@/ui/breadcrumbs';
import { Card } from '@/ui/card';
import { RecordForm } from '@/ui/forms/record-form';
import { initialRecordFormState } from '@/ui/forms/state';
import { LiveEditNotice } from '@/ui/live/live-edit-notice';
import { formChecks } from '@/ui/forms/validation';
import { PageHeader } from '@/ui/page-header';
import { inSentence } from '@/engine/spec/naming';
import { recordTitle } from '@/engine/ops/record-title';
import { writtenOnlyByCalls } from '@/engine/access/policy';
import { knownFields } from '@/ui/known-names';

type Props = { params: Promise<{ plural: string; id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  const { entity } = await entityForPlural(plural);
  return { title: `Edit ${inSentence(entity.label)}` };
}

export default async function EditRecordPage({ params }: Props) {
  const { plural, id: rawId } = await params;
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  // An entity only the spec's calls write has no such page, for anyone.
  if (writtenOnlyByCalls(entity)) notFound();
  const id = recordIdOrNotFound(rawId);
  const actor = await requireActor(`/${plural}/${rawId}/edit`);
  const { record, references, can } = await recordOrNotFound(engine, actor, entity, id);
  // Out of the update scope, or frozen in a final state: the 403 page, not a form that cannot be saved.
  if (!can.update) forbidden();
  const access = engine.ops.access(actor, entity.name);
  // Not a field hidden on this record (the grants that let the user see it hide it): the form
  // would show it empty and saving would clear it.
  const fields = knownFields(
    entity,
    access.writable.update.filter((name) => Object.hasOwn(record, name)),
  );
  const zone = await viewerZone();
  const values = Object.fromEntries(fields.map((field) => [field.name, toFormValue(field, record[field.name], zone)]));
  const descriptors = await describeFormFields({
    ops: engine.ops,
    actor,
    model: engine.model,
    entity,
    fields,
    values,
    references,
    zone,
    files: engine.files,
  });
  const base = `/${entity.plural}/${record.id}`;

  return (
    <div className="max-w-3xl">
      <PageHeader
        eyebrow={
          <Breadcrumbs
            items={[
              { href: `/${entity.plural}`, label: entity.pluralLabel },
              { href: base, label: recordTitle(entity, record, references) },
              { label: 'Edit' },
            ]}
          />
        }
        title={`Edit ${inSentence(entity.label)}`}
      />
      <Card className="p-6">
        {/* Someone else's change while this form is open is announced here, not refreshed under the user. */}
        <LiveEditNotice entity={entity.name} id={record.id} label={inSentence(entity.label)} reloadHref={`${base}/edit`}>
          <RecordForm
            action={updateRecord.bind(null, entity.name, record.id)}
            initialState={initialRecordFormState(values)}
            fields={descriptors}
            checks={formChecks(engine.model, entity, fields, values)}
            version={record.version}
            seen={JSON.stringify(seenValues(entity, record, references, zone, engine.model.locale))}
            submitLabel="Save changes"
            computed={computedViews(entity, record, references, zone, engine.model.locale)}
            cancelHref={base}
          />
        </LiveEditNotice>
      </Card>
    </div>
  );
}
