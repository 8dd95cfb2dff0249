import { createHash } from 'node:crypto';
import type { FieldModel, UniqueWhenModel } from './model';
import type { EntitySpec } from './types';

/**
 * `uniqueWhen` with its defaults. The index name carries a hash of the fields and the condition,
 * so that a changed condition is a new index (schema sync builds it; the old one is not a lossy
 * change to drop).
 */
export function buildUniqueWhen(table: string, entity: EntitySpec, fields: readonly FieldModel[]): readonly UniqueWhenModel[] {
  const declared = entity.uniqueWhen === undefined ? [] : Array.isArray(entity.uniqueWhen) ? entity.uniqueWhen : [entity.uniqueWhen as NonNullable<EntitySpec['uniqueWhen']> & object];
  return (declared as readonly NonNullable<Exclude<EntitySpec['uniqueWhen'], readonly unknown[]>>[]).map((u) => {
    const labels = u.fields.map((name) => fields.find((f) => f.name === name)?.label ?? name);
    const hash = createHash('sha256').update(JSON.stringify([u.fields, u.where])).digest('hex').slice(0, 10);
    return {
      fields: u.fields,
      where: u.where,
      message: u.message ?? `Another record already has this ${labels.join(' and ').toLowerCase()}.`,
      index: `${table}_uw_${hash}`,
    };
  });
}
