import { createHash } from 'node:crypto';
import type { FieldModel, UniqueWhenModel } from './model';
import type { AppSpec, Condition, EntitySpec, UniqueWhenSpec } from './types';
import { inSentence } from './naming';

/** Postgres truncates identifiers to 63 bytes: the table part is shortened so the hash survives. */
const MAX_IDENTIFIER_LENGTH = 63;
const HASH_LENGTH = 10;

/** The entity's `uniqueWhen`, one or a list, as a list. */
export function declaredUniqueWhen(entity: Pick<EntitySpec, 'uniqueWhen'>): readonly UniqueWhenSpec[] {
  const declared = entity.uniqueWhen;
  if (declared === undefined) return [];
  return Array.isArray(declared) ? (declared as readonly UniqueWhenSpec[]) : [declared as UniqueWhenSpec];
}

/** `<table>_uw_`: how the partial unique indexes of `uniqueWhen` are named, so that schema sync knows its own. */
export function uniqueWhenIndexPrefix(table: string): string {
  return `${table.slice(0, MAX_IDENTIFIER_LENGTH - HASH_LENGTH - 4)}_uw_`;
}

/**
 * `uniqueWhen` with its defaults. The index name carries a hash of the fields and the condition
 * with its constants' values, so that a changed condition (or constant) is a new index: schema
 * sync builds it and drops the old one, which holds no data.
 */
export function buildUniqueWhen(
  table: string,
  entity: EntitySpec,
  fields: readonly FieldModel[],
  constants: AppSpec['constants'] = {},
): readonly UniqueWhenModel[] {
  return declaredUniqueWhen(entity).map((u) => {
    const labels = u.fields.map((name) => fields.find((f) => f.name === name)?.label ?? name);
    const hash = createHash('sha256')
      .update(JSON.stringify([u.fields, resolveConstants(u.where, constants)]))
      .digest('hex')
      .slice(0, HASH_LENGTH);
    return {
      fields: u.fields,
      where: u.where,
      message: u.message ?? `Another record already has this ${inSentence(labels.join(' and '))}.`,
      code: u.error ?? 'VALIDATION_FAILED',
      index: `${uniqueWhenIndexPrefix(table)}${hash}`,
    };
  });
}

/** The condition with `{ $constant }` operands replaced by their values (for the fingerprint only). */
export function resolveConstants(condition: Condition, constants: AppSpec['constants'] = {}): unknown {
  return JSON.parse(JSON.stringify(condition), (_key, value: unknown) =>
    typeof value === 'object' && value !== null && '$constant' in value
      ? { $value: constants[String((value as { $constant: unknown }).$constant)]?.value ?? null }
      : value,
  );
}
