import { declaredValue } from './own-names';
import { isDecimalType } from './field-numbers';
import type { ConstantSpec, FieldSpec } from './types';

/**
 * A field's default on create as the engine applies it, decided once at boot: a value (a
 * constant's resolved), the signed-in user, the time of creation, or the actor's own record of
 * the referenced entity. Every door (forms, the API, imports) takes it from here.
 */
export type FieldDefault =
  | { readonly kind: 'value'; readonly value: string | number | boolean; readonly constant: string | null }
  | { readonly kind: 'actor' }
  | { readonly kind: 'now' }
  /** The record of `entity` whose user field `userField` is the actor (none: no default). */
  | { readonly kind: 'ownRecord'; readonly entity: string; readonly userField: string };

export function buildFieldDefault(field: FieldSpec, constants: Readonly<Record<string, ConstantSpec>>): FieldDefault | undefined {
  if (
    field.type === 'references' ||
    field.type === 'users' ||
    field.type === 'file' ||
    field.type === 'files' ||
    field.default === undefined
  )
    return undefined;
  const d = field.default;
  if (field.type === 'reference')
    return typeof d === 'object' && 'own' in d ? { kind: 'ownRecord', entity: field.to, userField: d.own } : undefined;
  if (field.type === 'user') return { kind: 'actor' };
  if (field.type === 'datetime') return { kind: 'now' };
  if (typeof d === 'object' && '$constant' in d) {
    const value = declaredValue(constants, d.$constant, 'constant').value;
    if (typeof value === 'object')
      throw new Error(`The constant "${d.$constant}" is a map, though the spec validator checks a default fits its field.`);
    // A decimal's (or money's) values are strings ("12.50"), as its schema reads them.
    return { kind: 'value', value: isDecimalType(field.type) && typeof value === 'number' ? String(value) : value, constant: d.$constant };
  }
  return typeof d === 'object' ? undefined : { kind: 'value', value: d, constant: null };
}

/** A field's default when it is a plain value (a constant's resolved), for the readers that show or store one. */
export function plainDefault(field: { readonly defaultTo?: FieldDefault }): string | number | boolean | undefined {
  return field.defaultTo?.kind === 'value' ? field.defaultTo.value : undefined;
}
