import type { AppModel, EntityModel } from './model';

/** The label of the create button: `labels["<entity>.new"]` from the spec, or "New <label>". */
export function newRecordLabel(model: AppModel, entity: EntityModel): string {
  return model.labels[`${entity.name}.new`] ?? `New ${entity.label}`;
}
