import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import type { FieldError } from '@/engine/errors/ninefold-error';
import type { EntityModel } from '@/engine/spec/model';
import { humanize } from '@/engine/spec/naming';

/*
 * The words of a refused write for a form that does not show every field the refusal names: a
 * record rule broken on a field the user did not touch ("Resolve" on a ticket whose due time
 * breaks a rule), in a transition's form or a bulk report. Each such error reads as the field's
 * label and the rule's message, so the user learns which rule and which field.
 */

/** "Due at: The due time must be in the future." — the label only of a field the viewer may read. */
export function fieldErrorText(entity: EntityModel, readable: ReadonlySet<string>, error: FieldError): string {
  const field = entity.fieldsByName[error.field];
  const label = field ? (readable.has(field.name) ? field.label : '') : error.field ? humanize(error.field) : '';
  return label ? `${label}: ${error.message}` : error.message;
}

/**
 * The refusal's message followed by the errors of fields the form does not mark (`unmarked`).
 * The catalogue's "Check the fields marked below." is left out when nothing is marked: it would
 * point at nothing.
 */
export function refusalMessage(
  entity: EntityModel,
  readable: ReadonlySet<string>,
  refusal: { readonly code: string; readonly message: string },
  marked: number,
  unmarked: readonly FieldError[],
): string {
  const details = [...new Set(unmarked.filter((e) => e.message !== refusal.message).map((e) => fieldErrorText(entity, readable, e)))];
  const pointsAtNothing =
    marked === 0 &&
    details.length > 0 &&
    refusal.code === 'VALIDATION_FAILED' &&
    refusal.message === BUILT_IN_ERRORS.VALIDATION_FAILED.message;
  return [...(pointsAtNothing ? [] : [refusal.message]), ...details].join(' ');
}
