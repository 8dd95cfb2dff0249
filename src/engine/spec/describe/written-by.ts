import { fieldWrittenOnlyByCalls, policyOf, writtenOnlyByCalls } from '../../access/policy';
import type { AppModel, EntityModel } from '../model';
import { code } from './text';

/*
 * `writtenBy: 'calls'` in the document: which entities and fields only the spec's calls write,
 * and which calls could (those open to a role that may create, change or delete such records;
 * what a call's code does is not known before it runs).
 */

type WriteAction = 'create' | 'update' | 'delete';

/** The roles that may write records of the entity with one of the actions (the built-in admin when none are declared). */
function writingRoles(entity: EntityModel, actions: readonly WriteAction[]): Set<string> {
  const grants = [...policyOf(entity).roles.values()];
  return new Set(grants.filter((grant) => actions.some((a) => grant.scopes[a] !== undefined)).map((grant) => grant.role));
}

/** "POST /api/v1/payments/{id}/refund" for each call a role that may write the entity may make. */
export function writingCalls(model: AppModel, entity: EntityModel, actions: readonly WriteAction[]): string[] {
  const roles = writingRoles(entity, actions);
  return Object.values(model.calls)
    .filter((call) => call.roles.some((role) => roles.has(role)))
    .map((call) => code(`${call.method} /api/v1${call.path}`));
}

function callsList(calls: readonly string[]): string {
  return calls.length > 0 ? `: ${calls.join(', ')}` : ' (none of them is open to a role that may write them)';
}

/** What only calls write, entity by entity (none when the spec declares nothing so). */
export function writtenByCallsText(model: AppModel): string[] {
  const texts: string[] = [];
  for (const entity of model.entities) {
    if (writtenOnlyByCalls(entity)) {
      texts.push(
        `${entity.pluralLabel} are written only by the spec's calls and workflow effects; the pages, imports and the record API read them only (a write there is 405), and the create, update and delete grants of point 6 say who may write them through calls. Calls that could${callsList(writingCalls(model, entity, ['create', 'update', 'delete']))}.`,
      );
    }
    const fields = entity.fields.filter((f) => fieldWrittenOnlyByCalls(entity, f));
    if (fields.length > 0 && !writtenOnlyByCalls(entity)) {
      texts.push(
        `${fields.map((f) => code(`${entity.name}.${f.name}`)).join(', ')}: written only by the spec's calls, workflow effects and the default; forms, imports and the record API cannot set ${fields.length === 1 ? 'it' : 'them'}. Calls that could${callsList(writingCalls(model, entity, ['create', 'update']))}.`,
      );
    }
  }
  return texts;
}
