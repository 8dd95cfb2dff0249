// The ops write kit: a final workflow state freezes a record, for updates, related records and reads alike.

import { NinefoldError } from '../errors/ninefold-error';
import type { AppModel, EntityModel } from '../spec/model';

/** Whether the record is in a final state of its workflow (which freezes it). */
export function isFinal(entity: EntityModel, record: Readonly<Record<string, unknown>>): boolean {
  const workflow = entity.workflow;
  return workflow !== null && workflow.states.some((s) => s.final && s.name === record[workflow.field]);
}

/** The refusal of a change to a record in a final state: the workflow's `finalError`, or RECORD_FINAL. */
export function finalStateError(model: AppModel, entity: EntityModel): NinefoldError {
  const code = entity.workflow?.finalError ?? 'RECORD_FINAL';
  const own = model.errors[code];
  return new NinefoldError(code, own?.message, own ? { status: own.status, title: own.title } : {});
}
