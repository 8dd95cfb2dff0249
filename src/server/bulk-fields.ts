import 'server-only';
import type { EntityAccess, Ops } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import type { AppModel, EntityModel } from '@/engine/spec/model';
import type { FormFieldDescriptor } from '@/ui/forms/state';
import { bulkFieldsOf } from './bulk-transition-actions';
import { settableFields } from './bulk-field-actions';
import { describeFormFields } from './form-fields';
import { inSentence } from '@/engine/spec/naming';

/**
 * The list toolbar's inputs for the fields that the offered transitions require (the assignee
 * that starting a ticket needs), among those the actor may write. Optional: rows that have a
 * value already can move without one. Each says which transitions use it.
 */
export async function describeBulkFields(options: {
  ops: Ops;
  actor: Actor;
  model: AppModel;
  entity: EntityModel;
  /** The transitions offered in the toolbar. */
  offered: readonly string[];
  writable: ReadonlySet<string>;
  /** The viewer's zone: a date-time typed in the toolbar is read in it. */
  zone: string;
}): Promise<FormFieldDescriptor[]> {
  const { ops, actor, model, entity, offered, writable, zone } = options;
  const transitions = (entity.workflow?.transitions ?? []).filter((t) => offered.includes(t.name));
  const fields = bulkFieldsOf(entity).filter((f) => writable.has(f.name) && transitions.some((t) => t.requires.includes(f.name)));
  if (fields.length === 0) return [];
  const described = await describeFormFields({ ops, actor, model, entity, fields, values: {}, zone });
  return described.map((field) => {
    const using = transitions
      .filter((t) => t.requires.includes(field.name))
      .map((t) => `“${t.label}”`)
      .join(', ');
    return {
      ...field,
      required: false,
      help: `for ${using}, set on each selected ${inSentence(entity.label)} it is taken on; “Keep theirs” leaves the value they have.`,
    };
  });
}

/**
 * The inputs of "Set <field>" in the list's bulk panel: the fields the actor may update whose
 * kind takes one value for many rows (settableFields), with their choices loaded.
 */
export async function describeBulkSetFields(options: {
  ops: Ops;
  actor: Actor;
  model: AppModel;
  entity: EntityModel;
  access: EntityAccess;
  zone: string;
}): Promise<FormFieldDescriptor[]> {
  const { ops, actor, model, entity, access, zone } = options;
  const fields = settableFields(entity, access);
  if (fields.length === 0) return [];
  return describeFormFields({ ops, actor, model, entity, fields, values: {}, zone });
}
