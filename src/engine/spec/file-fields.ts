import type { AppModel, EntityModel, FieldModel, FileLimits } from './model';

/** A `file` or `files` field: its limits, and the join table pairing records with nf_file rows. */
export type FileFieldModel = FieldModel & { readonly files: FileLimits; readonly joinTable: string };

/** The entity's file fields. */
export function fileFields(entity: EntityModel): FileFieldModel[] {
  return entity.fields.filter((f): f is FileFieldModel => f.files !== undefined && f.joinTable !== undefined);
}

/** Every file field of the spec, with its entity. */
export function modelFileFields(model: AppModel): { readonly entity: EntityModel; readonly field: FileFieldModel }[] {
  return model.entities.flatMap((entity) => fileFields(entity).map((field) => ({ entity, field })));
}

/** Whether the spec has files at all: the upload and download routes, the sweep and /spec's paragraph exist only then. */
export function hasFileFields(model: AppModel): boolean {
  return model.entities.some((entity) => fileFields(entity).length > 0);
}
