import type { AppModel, EntityModel, FieldModel } from '@/engine/spec/model';
import { ownValue } from '@/engine/spec/own-names';

/**
 * Lookups by a name the model itself holds (a widget's or a custom route's entity, a related
 * section's, a reference's target, the fields of the compiled policy's lists): the spec's
 * validation lets no such name dangle, so a miss is a bug of the engine, said here by name
 * rather than as a TypeError further on. Names that come from outside (an address, a form,
 * a stored row) are checked where they arrive, never through these.
 */
export function knownEntity(model: AppModel, name: string): EntityModel {
  const entity = ownValue(model.entitiesByName, name);
  if (!entity) throw new Error(`The model has no entity "${name}".`);
  return entity;
}

/** The entity's fields the names say, in their order. */
export function knownFields(entity: EntityModel, names: readonly string[]): FieldModel[] {
  return names.map((name) => {
    const field = ownValue(entity.fieldsByName, name);
    if (!field) throw new Error(`The entity ${entity.name} has no field "${name}".`);
    return field;
  });
}
