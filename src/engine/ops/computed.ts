import { computeValue, type ComputedFieldModel } from '../computed/evaluate';
import type { ParsedValues } from '../rules/record-input';
import type { EntityModel } from '../spec/model';

/*
 * Computed fields (`computed` on a field) are ordinary columns that ops write with the record.
 * Unlike due times (./due.ts), which may count from the database's own clock (createdAt), a
 * computed value depends only on the record's stored fields: so it joins the write's values, and
 * every later step (rules, limits, uniqueWhen, the row, its history) sees the value stored,
 * without a second path. A slug is numbered against the other records in the transaction
 * (./slugs.ts).
 */

export function computedFields(entity: EntityModel): ComputedFieldModel[] {
  return entity.fields.filter((f): f is ComputedFieldModel => f.computed !== undefined);
}

/** A new record's values with every computed field filled from them. */
export function withComputedOnCreate(entity: EntityModel, values: ParsedValues): ParsedValues {
  const fields = computedFields(entity);
  if (fields.length === 0) return values;
  return { ...values, ...Object.fromEntries(fields.map((f) => [f.name, computeValue(f, values)])) };
}

/**
 * The changes of an update (or a transition's effects) with the computed fields they move: those
 * an input of which is written. A slug is kept once it has a value (addresses stay put), so it
 * is filled only while it is empty.
 */
export function withComputedOnUpdate(
  entity: EntityModel,
  current: Readonly<Record<string, unknown>>,
  changes: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const after = { ...current, ...changes };
  const moved = computedFields(entity).filter(
    (f) => f.computed.inputs.some((input) => Object.hasOwn(changes, input)) && (f.computed.kind !== 'slug' || isEmpty(current[f.name])),
  );
  if (moved.length === 0) return { ...changes };
  return { ...changes, ...Object.fromEntries(moved.map((f) => [f.name, computeValue(f, after)])) };
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}
