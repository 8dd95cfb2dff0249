'use server';

import { notFound, redirect } from 'next/navigation';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import { humanize } from '@/engine/spec/naming';
import { type MessageFormState, type RecordFormState, VERSION_INPUT } from '@/ui/forms/state';
import { getEngine } from '../engine';
import { asNinefoldError } from '../errors';
import { formFieldsFor } from '../field-access';
import { nonNegativeInteger, readFormInput } from '../forms';
import { requireActor } from '../session';

/*
 * The form door: resolve the actor, call one ops function, then go to the record, or hand
 * the form back with the refusal. Entity and id are bound by the page; they come back from
 * the browser, so they are checked again here (ops checks access on every call anyway).
 */

async function context(entityName: string) {
  const actor = await requireActor();
  const engine = await getEngine();
  const entity = Object.hasOwn(engine.model.entitiesByName, entityName) ? engine.model.entitiesByName[entityName] : undefined;
  if (!entity) notFound();
  return { actor, engine, entity };
}

function checkedId(id: number): number {
  if (!Number.isSafeInteger(id) || id < 1) notFound();
  return id;
}

/** The form again, with what was typed and why it was refused. Errors that are not the user's are thrown on. */
function refusedForm(error: unknown, state: RecordFormState, values: Record<string, string>, entity: EntityModel, fields: readonly FieldModel[]): RecordFormState {
  const known = asNinefoldError(error);
  if (!known) throw error;
  const shown = new Set(fields.map((f) => f.name));
  const fieldErrors: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const fieldError of known.fieldErrors) {
    if (shown.has(fieldError.field)) {
      fieldErrors[fieldError.field] ??= fieldError.message;
    } else {
      const label = entity.fieldsByName[fieldError.field]?.label ?? (fieldError.field ? humanize(fieldError.field) : '');
      elsewhere.push(label ? `${label}: ${fieldError.message}` : fieldError.message);
    }
  }
  const message = [known.message, ...elsewhere].join(' ');
  return { values: { ...state.values, ...values }, fieldErrors, message, attempt: state.attempt + 1 };
}

export async function createRecord(entityName: string, state: RecordFormState, formData: FormData): Promise<RecordFormState> {
  const { actor, engine, entity } = await context(entityName);
  const fields = formFieldsFor(entity, actor);
  const { input, values } = readFormInput(formData, fields);
  let id: number;
  try {
    id = (await engine.ops.create(actor, entity.name, input)).id;
  } catch (error) {
    return refusedForm(error, state, values, entity, fields);
  }
  redirect(`/${entity.plural}/${id}`);
}

export async function updateRecord(entityName: string, recordId: number, state: RecordFormState, formData: FormData): Promise<RecordFormState> {
  const { actor, engine, entity } = await context(entityName);
  const id = checkedId(recordId);
  const fields = formFieldsFor(entity, actor);
  const { input, values } = readFormInput(formData, fields);
  const version = nonNegativeInteger(formData.get(VERSION_INPUT));
  try {
    if (version === null) throw new NinefoldError('PRECONDITION_REQUIRED');
    await engine.ops.update(actor, entity.name, id, input, version);
  } catch (error) {
    return refusedForm(error, state, values, entity, fields);
  }
  redirect(`/${entity.plural}/${id}`);
}

export async function deleteRecord(entityName: string, recordId: number, state: MessageFormState, formData: FormData): Promise<MessageFormState> {
  const { actor, engine, entity } = await context(entityName);
  const id = checkedId(recordId);
  const version = nonNegativeInteger(formData.get(VERSION_INPUT));
  try {
    if (version === null) throw new NinefoldError('PRECONDITION_REQUIRED');
    await engine.ops.delete(actor, entity.name, id, version);
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    return { message: known.message, values: {}, attempt: state.attempt + 1 };
  }
  redirect(`/${entity.plural}`);
}
