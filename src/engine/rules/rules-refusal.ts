import { fieldRefusal } from '../errors/field-refusal';
import type { FieldError, NinefoldError } from '../errors/ninefold-error';
import type { AppModel, EntityModel } from '../spec/model';

/**
 * The refusal of a write that breaks entity rules (each error's code is its rule's name): the
 * code of the first broken rule (its `error`, default VALIDATION_FAILED), every message kept on
 * its field. One refusal has one code, as with guards; the first rule in the spec's order answers.
 */
export function rulesRefusal(
  model: Pick<AppModel, 'errors'>,
  entity: Pick<EntityModel, 'rules'>,
  errors: readonly FieldError[],
): NinefoldError {
  const first = errors[0];
  const code = (first && Object.hasOwn(entity.rules, first.code) ? entity.rules[first.code]?.error : undefined) ?? 'VALIDATION_FAILED';
  return fieldRefusal(model.errors, code, errors);
}

/** The spec's own codes a write of the entity may be refused with by its rules and `uniqueWhen` (OpenAPI lists them). */
export function ruleCodes(entity: Pick<EntityModel, 'rules' | 'uniqueWhen'>): string[] {
  const codes = [...Object.values(entity.rules).map((rule) => rule.error), ...entity.uniqueWhen.map((rule) => rule.code)];
  return [...new Set(codes.filter((code): code is string => code !== undefined && code !== 'VALIDATION_FAILED'))];
}
