import type { AppModel, EntityModel, FieldModel, SystemColumn, WorkflowModel } from '@/engine/spec/model';
import { humanize } from '@/engine/spec/naming';
import type { RecordData } from '@/engine/ops/types';
import { isReadable } from '@/engine/access/fields';
import { isOverdue } from '@/engine/rules/overdue';

/** A column of a record table: a declared field, the workflow state, or a system column. */
export type ListColumn =
  | {
      readonly kind: 'field';
      readonly name: string;
      readonly label: string;
      readonly field: FieldModel;
      readonly targetPlural?: string;
      readonly sortable: boolean;
      /** For a computed due time: whether a record shown with it is overdue (the engine's rule). */
      readonly overdue?: (record: RecordData, now: Date) => boolean;
    }
  | { readonly kind: 'state'; readonly name: string; readonly label: string; readonly workflow: WorkflowModel; readonly sortable: boolean }
  | { readonly kind: 'system'; readonly name: SystemColumn['name']; readonly label: string; readonly sortable: boolean };

export function resolveColumn(model: AppModel, entity: EntityModel, name: string): ListColumn | null {
  const field = entity.fieldsByName[name];
  if (field) {
    const targetPlural = field.referenceTo ? model.entitiesByName[field.referenceTo]?.plural : undefined;
    const overdue = field.due ? (record: RecordData, now: Date) => isOverdue(model, field, record, now) : undefined;
    return {
      kind: 'field',
      name,
      label: field.label,
      field,
      targetPlural,
      sortable: field.type !== 'markdown' && field.joinTable === undefined,
      ...(overdue ? { overdue } : {}),
    };
  }
  if (entity.workflow && entity.workflow.field === name) {
    return { kind: 'state', name, label: humanize(name), workflow: entity.workflow, sortable: true };
  }
  const system = entity.systemColumns.find((c) => c.name === name);
  if (system) return { kind: 'system', name: system.name, label: system.label, sortable: true };
  return null;
}

/**
 * The columns of an entity's list screen. The title column links to the record; when the list
 * has no title column, an ID column is put first so that every row still has a link.
 */
export function listColumns(
  model: AppModel,
  entity: EntityModel,
  /** What the viewer may read (ops.access): columns of other fields and authors are left out. */
  readable: ReadonlySet<string>,
  /** The columns shown; default: the entity's list screen's (a custom route may choose its own). */
  names: readonly string[] = entity.list.columns,
): { columns: readonly ListColumn[]; linkColumn: string } {
  const columns = names
    .map((name) => resolveColumn(model, entity, name))
    .filter((c): c is ListColumn => c !== null && isReadable(entity, readable, c.name));
  const linkColumn = entity.titleField && columns.some((c) => c.name === entity.titleField) ? entity.titleField : 'id';
  if (linkColumn === 'id' && !columns.some((c) => c.name === 'id')) {
    const id = resolveColumn(model, entity, 'id');
    if (id) columns.unshift(id);
  }
  return { columns, linkColumn };
}
