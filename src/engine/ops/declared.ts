import { ownValue } from '../spec/own-names';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';

/**
 * Lookups by a name the spec itself gives (a reference's target, a field of a unique key or a
 * rule, a limit's owner field), which the spec's validation checked when it was loaded. One
 * missing is the engine's fault, not the client's: an Error says which name, where the bare
 * lookup would fail further on with a TypeError. A name that comes from a client is looked up
 * with ownValue and refused as the client's (own-names.ts).
 */
export function declared<T>(table: Readonly<Record<string, T>>, name: string, what: string): T {
  const value = ownValue(table, name);
  if (value === undefined) throw new Error(`No ${what} "${name}" is declared, though the spec's validation checks it`);
  return value;
}

/** The field of the entity that the spec names (see declared). */
export function declaredField(entity: EntityModel, name: string): FieldModel {
  return declared(entity.fieldsByName, name, `field of ${entity.name}`);
}

/** The entity a reference or references field refers to (see declared). */
export function referencedEntity(model: AppModel, field: Pick<FieldModel, 'name' | 'referenceTo'>): EntityModel {
  if (field.referenceTo === undefined) throw new Error(`The field "${field.name}" refers to no entity`);
  return declared(model.entitiesByName, field.referenceTo, 'entity');
}
