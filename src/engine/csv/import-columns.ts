import type { EntityAccess } from '../access/entity-access';
import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import type { EntityModel, FieldModel } from '../spec/model';
import { inSentence } from '../spec/naming';

/** A column of an imported file and the field it fills (null: a blank column, ignored). */
export interface ImportColumn {
  readonly header: string;
  readonly field: FieldModel | null;
}

const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The fields an actor can import: those it may write when creating a record (the same list the
 * create form offers), in spec order.
 */
export function importableFields(entity: EntityModel, access: EntityAccess): FieldModel[] {
  const writable = new Set(access.writable.create);
  return entity.fields.filter((f) => writable.has(f.name));
}

/** Whether a required field of the file may be left out: it has a default to fall back on. */
function hasDefault(field: FieldModel): boolean {
  return field.defaultTo !== undefined;
}

/**
 * Maps the header row to fields, by name or label, ignoring case and spacing, before any row is
 * read. Refuses the file (VALIDATION_FAILED, one field error per column, named as in the file)
 * for a column that is not an importable field (the id, times, authors and state are set by the
 * application; a field the actor may not write is named as such only when the actor may read
 * it), a column named twice, and a required field without a default that has no column. A
 * column without a name is ignored if it is blank, which only the rows can tell
 * (checkUnnamedColumns).
 */
export function mapColumns(entity: EntityModel, access: EntityAccess, header: readonly string[]): ImportColumn[] {
  const importable = importableFields(entity, access);
  const readable = new Set(access.readable);
  const byName = new Map<string, FieldModel>();
  for (const field of entity.fields) {
    byName.set(normal(field.name), field);
    byName.set(normal(field.label), field);
  }
  const system = new Map<string, string>();
  for (const column of entity.systemColumns) {
    system.set(normal(column.name), column.label);
    system.set(normal(column.label), column.label);
  }
  if (entity.workflow) system.set(normal(entity.workflow.field), 'State');
  const plural = inSentence(entity.pluralLabel);

  const problems: FieldError[] = [];
  const problem = (column: string, code: string, message: string) => problems.push({ field: column, code, message });
  const seen = new Map<string, string>();
  const columns = header.map((raw): ImportColumn => {
    const text = raw.trim();
    if (text === '') return { header: text, field: null };
    const field = byName.get(normal(text));
    if (!field || (!readable.has(field.name) && !importable.includes(field))) {
      const what = system.get(normal(text));
      if (what === 'State' && entity.workflow) {
        const initial = entity.workflow.states.find((s) => s.name === entity.workflow!.initial);
        problem(
          text,
          'not_importable',
          `"${text}": new ${plural} start as "${initial?.label ?? entity.workflow.initial}" and change state only through the workflow. Remove this column.`,
        );
      } else if (what) {
        problem(text, 'not_importable', `"${text}" is set by the application. Remove this column.`);
      } else {
        problem(text, 'unknown_column', `"${text}" is not a field of ${plural}. Rename or remove this column.`);
      }
      return { header: text, field: null };
    }
    if (!importable.includes(field)) {
      problem(
        text,
        'not_importable',
        field.readOnly ? `"${text}" is read-only. Remove this column.` : `You cannot set "${text}" on new ${plural}. Remove this column.`,
      );
      return { header: text, field: null };
    }
    const earlier = seen.get(field.name);
    if (earlier !== undefined) problem(text, 'duplicate_column', `"${text}" and "${earlier}" both fill ${field.label}. Keep one of them.`);
    seen.set(field.name, text);
    return { header: text, field };
  });
  for (const field of importable) {
    if (field.required && !hasDefault(field) && !seen.has(field.name)) {
      problem(field.label, 'missing_column', `The file has no "${field.label}" column, and every ${inSentence(entity.label)} needs one.`);
    }
  }
  if (problems.length > 0) throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: problems });
  return columns;
}

/** Refuses the file (VALIDATION_FAILED) when columns without a name in the header row have values: `filled`, by index. */
export function checkUnnamedColumns(columns: readonly ImportColumn[], filled: ReadonlySet<number>): void {
  const problems: FieldError[] = [...filled]
    .filter((index) => columns[index]?.header === '')
    .sort((a, b) => a - b)
    .map((index) => ({
      field: `column ${index + 1}`,
      code: 'unnamed_column',
      message: `Column ${index + 1} has values but no name in the header row.`,
    }));
  if (problems.length > 0) throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: problems });
}
