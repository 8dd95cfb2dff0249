import { Fragment, type ReactNode } from 'react';
import { isVisitor } from '@/engine/access/visitor';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { RecordView } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import { updateField } from '@/server/actions/records';
import { describeFormFields } from '@/server/form-fields';
import { toFormValue } from '@/server/forms';
import { knownFields } from '@/ui/known-names';
import { AssignToMe, FieldEdit } from '@/ui/record/field-edit';

/** Field types changed in place; longer texts, files and sets keep the edit page. */
const IN_PLACE = new Set(['text', 'integer', 'decimal', 'money', 'boolean', 'date', 'datetime', 'enum', 'reference', 'user']);

/**
 * The controls that change one field where it is shown: for each field the viewer may update on
 * this record (ops decides: its scope, its state, the field rules), a "Change" disclosure; for a
 * user field whose roles include the viewer's and that does not name them yet, "Assign to me".
 */
export async function inPlaceEdits(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  view: RecordView,
  readable: ReadonlySet<string>,
  zone: string,
): Promise<Record<string, ReactNode>> {
  const { record, references, can } = view;
  if (!can.update || isVisitor(actor)) return {};
  const fields = knownFields(
    entity,
    engine.ops.access(actor, entity.name).writable.update.filter((name) => readable.has(name)),
  ).filter((field) => IN_PLACE.has(field.type));
  if (fields.length === 0) return {};
  const values = Object.fromEntries(fields.map((field) => [field.name, toFormValue(field, record[field.name], zone)]));
  const described = await describeFormFields({ ops: engine.ops, actor, model: engine.model, entity, fields, values, references, zone });
  const action = updateField.bind(null, entity.name, record.id);
  return Object.fromEntries(
    described.map((field) => {
      const model = entity.fieldsByName[field.name]!;
      const mine =
        model.type === 'user' &&
        record[field.name] !== actor.userId &&
        (model.holderRoles ?? []).some((role) => actor.roles.includes(role));
      return [
        field.name,
        <Fragment key={field.name}>
          {mine ? (
            <AssignToMe action={action} field={field.name} label={field.label} userId={actor.userId} version={record.version} />
          ) : null}
          <FieldEdit action={action} field={field} value={values[field.name] ?? ''} version={record.version} />
        </Fragment>,
      ];
    }),
  );
}
