import { MAX_PAGE_SIZE } from '../spec/page-size';
import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import { parseSort } from '../spec/build';
import type { EntityModel, SortModel } from '../spec/model';
import { capitalize, indefinite } from '../spec/naming';
import { columnFor, isNullableSortColumn } from './records';
import { DUE_FILTERS, isDueFilter } from '../rules/overdue';

const SORTABLE_SYSTEM = ['id', 'createdAt', 'updatedAt'];
const FILTERABLE_TYPES = new Set(['enum', 'reference', 'references', 'user', 'users', 'boolean']);
/** Ids one "has any of" filter may name (a set): a page of choices, not a bulk list. */
export const MAX_FILTER_IDS = 100;
const MAX_SEARCH_LENGTH = 200;

function fail(field: string, code: string, message: string): NinefoldError {
  const fieldErrors: FieldError[] = [{ field, code, message }];
  return new NinefoldError('VALIDATION_FAILED', message, { fieldErrors });
}

/** Columns a list can be ordered by: every stored field but long text, the state, id and times. */
export function sortableFields(entity: EntityModel): string[] {
  return [
    // Neither long text nor a set of references (a record has no single value to order by).
    ...entity.fields.filter((f) => f.type !== 'markdown' && f.joinTable === undefined).map((f) => f.name),
    ...(entity.workflow ? [entity.workflow.field] : []),
    ...SORTABLE_SYSTEM,
  ];
}

/** One key of a list's order, resolved to its column. */
export interface SortKey extends SortModel {
  readonly column: string;
  readonly nullable: boolean;
  /** An enum's declared values: it sorts by a value's position among them, not alphabetically. */
  readonly order?: readonly string[];
}

export const MAX_SORT_KEYS = 3;

/**
 * "field", "-field" or several comma-separated ("-priority,subject"); default: the list screen's
 * sort. The record id always ends the order, so that it is total and keyset pages are exact.
 */
export function resolveSort(entity: EntityModel, sort: string | undefined): SortKey[] {
  const parts = sort === undefined || sort === '' ? [entity.list.sort] : sort.split(',').map((p) => parseSort(p.trim()));
  if (parts.length > MAX_SORT_KEYS) throw fail('sort', 'invalid_sort', `A list can be sorted by at most ${MAX_SORT_KEYS} fields.`);
  const seen = new Set<string>();
  return parts.map((part) => {
    if (!sortableFields(entity).includes(part.field)) {
      throw fail('sort', 'invalid_sort', `${capitalize(indefinite(entity.label))} list cannot be sorted by "${part.field}".`);
    }
    if (seen.has(part.field)) throw fail('sort', 'invalid_sort', `"${part.field}" appears twice in the sort.`);
    seen.add(part.field);
    const enumValues = entity.fieldsByName[part.field]?.enumValues;
    return {
      ...part,
      column: columnFor(entity, part.field),
      nullable: isNullableSortColumn(entity, part.field),
      ...(enumValues ? { order: enumValues } : {}),
    };
  });
}

export function sortText(keys: readonly SortModel[]): string {
  return keys.map((k) => `${k.direction === 'desc' ? '-' : ''}${k.field}`).join(',');
}

/**
 * Fields that can filter a list: by equality enum, reference, user, boolean and the state; due
 * times by where they stand (DUE_FILTERS: overdue, due in the next 24 hours).
 */
export function filterableFields(entity: EntityModel): string[] {
  return [
    ...entity.fields.filter((f) => FILTERABLE_TYPES.has(f.type) || f.due).map((f) => f.name),
    ...(entity.workflow ? [entity.workflow.field] : []),
  ];
}

/** Checks and converts filter values ("" means no filter). */
export function resolveFilters(
  entity: EntityModel,
  filters: Readonly<Record<string, string>> = {},
): Record<string, string | number | boolean | readonly number[]> {
  // A due filter resolves to its name (DueFilter); ops.list turns it into a time range.
  const allowed = filterableFields(entity);
  const result: Record<string, string | number | boolean | readonly number[]> = {};
  for (const [name, raw] of Object.entries(filters)) {
    if (raw === '' || raw === undefined) continue;
    if (!allowed.includes(name))
      throw fail(name, 'invalid_filter', `${capitalize(indefinite(entity.label))} list cannot be filtered by "${name}".`);
    if (typeof raw !== 'string') throw fail(name, 'invalid_filter', `The filter "${name}" must be a single value.`);
    const field = entity.fieldsByName[name];
    if (!field) {
      if (!entity.workflow!.states.some((s) => s.name === raw))
        throw fail(name, 'invalid_filter', `"${raw}" is not a state of ${entity.label}.`);
      result[name] = raw;
    } else if (field.due) {
      if (!isDueFilter(raw))
        throw fail(name, 'invalid_filter', `${field.label} can be filtered by: ${Object.keys(DUE_FILTERS).join(', ')}.`);
      result[name] = raw;
    } else if (field.type === 'enum') {
      if (!field.enumValues!.includes(raw))
        throw fail(name, 'invalid_filter', `${field.label} must be one of: ${field.enumValues!.join(', ')}.`);
      result[name] = raw;
    } else if (field.type === 'boolean') {
      if (raw !== 'true' && raw !== 'false') throw fail(name, 'invalid_filter', `${field.label} must be true or false.`);
      result[name] = raw === 'true';
    } else if (field.joinTable !== undefined) {
      // "Has any of": ids separated by commas (what a form's repeated values become too).
      const ids = raw.split(',').map((part) => part.trim());
      if (ids.length > MAX_FILTER_IDS || !ids.every((id) => /^[1-9]\d{0,15}$/.test(id) && Number.isSafeInteger(Number(id)))) {
        throw fail(name, 'invalid_filter', `${field.label} must be the ids of at most ${MAX_FILTER_IDS} records, separated by commas.`);
      }
      result[name] = [...new Set(ids.map(Number))].sort((a, b) => a - b);
    } else {
      if (!/^[1-9]\d{0,15}$/.test(raw)) throw fail(name, 'invalid_filter', `${field.label} must be the id of a record.`);
      result[name] = Number(raw);
    }
  }
  return result;
}

export function resolveSearch(entity: EntityModel, q: string | undefined): string | null {
  if (q === undefined) return null;
  if (typeof q !== 'string') throw fail('q', 'invalid_search', 'The search must be text.');
  const text = q.trim();
  if (text === '') return null;
  if (entity.searchFields.length === 0) throw fail('q', 'invalid_search', `${entity.pluralLabel} cannot be searched.`);
  if (text.length > MAX_SEARCH_LENGTH) throw fail('q', 'invalid_search', `The search can be at most ${MAX_SEARCH_LENGTH} characters.`);
  if (text.includes('\u0000')) throw fail('q', 'invalid_search', 'The search cannot contain a NUL character.');
  return text;
}

export function resolveLimit(entity: EntityModel, limit: number | undefined): number {
  if (limit === undefined) return entity.list.pageSize;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw fail('limit', 'invalid_limit', `The page size must be a whole number from 1 to ${MAX_PAGE_SIZE}.`);
  }
  return limit;
}
