import { z } from 'zod';
import type { ListQuery } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import type { ListState } from '@/engine/views/types';
import { layoutOf } from '@/engine/views/list-state';
import { filterParam } from '@/ui/list/filter-param';

/**
 * The search parameters of a list page: untrusted, so their shape is checked here; what they
 * mean (is this a sortable column? a valid cursor? a readable column?) is checked by ops.list and
 * the list view. The address holds the whole state of a list, so back, forward, reload and a
 * shared link all show the same list.
 */
export interface ListParams {
  readonly sort: string;
  readonly q: string;
  readonly cursor: string;
  /** Filter values by field name; empty means no filter. */
  readonly filters: Readonly<Record<string, string>>;
  /** The columns shown, in order (`columns=a,b,c`); empty for the list's default. */
  readonly columns: readonly string[];
  /** How a list with a board is shown (`view=board` or `view=table`); empty for its default, the board. */
  readonly view: ListView;
}

export type ListView = '' | 'table' | 'board';

export type RawSearchParams = Readonly<Record<string, string | string[] | undefined>>;

/** A list as it first opens: no search, filters, chosen order, columns or view. */
export const EMPTY_LIST_PARAMS: ListParams = { sort: '', q: '', cursor: '', filters: {}, columns: [], view: '' };

/**
 * What the column chooser's form sends without JavaScript (the names of the columns in their
 * order, those ticked, and a move), turned into `columns=` by the page's redirect. Field names
 * have no dots, so these never clash with a filter.
 */
export const COLUMN_FORM = { order: 'columns.order', show: 'columns.show', move: 'columns.move' } as const;
const COLUMN_FORM_PARAMS: ReadonlySet<string> = new Set(Object.values(COLUMN_FORM));

/** One value per parameter: a repeated parameter counts by its first value. */
const single = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')));

/** Every value of a repeated parameter, joined by commas: a multiple select's "has any of" ids. */
const joined = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (Array.isArray(v) ? v.filter((part) => part !== '').join(',') : (v ?? '')));

/** "a,b,c" as names, without blanks or repeats. */
function splitColumns(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
}

function buildSchema(entity: EntityModel) {
  return z.object({
    sort: single.pipe(z.string().max(100, 'The sort is too long.')),
    q: single.pipe(z.string().max(200, 'The search is too long (200 characters at most).')),
    cursor: single.pipe(z.string().max(2000, 'The page cursor is too long.')),
    columns: single.pipe(z.string().max(2000, 'The list of columns is too long.')),
    view: single.pipe(z.enum(['', 'table', 'board'], { error: 'A list is shown as a table (view=table) or a board (view=board).' })),
    ...Object.fromEntries(
      entity.list.filters.map((field) => [
        filterParam(field),
        entity.fieldsByName[field]?.joinTable
          ? joined.pipe(z.string().max(2000, `The ${field} filter is too long.`))
          : single.pipe(z.string().max(200, `The ${field} filter is too long.`)),
      ]),
    ),
  });
}

type ListParamsSchema = ReturnType<typeof buildSchema>;

/**
 * Built once per entity and kept: the schema depends only on the entity's declared filters, and
 * building a zod object per request showed up in the list page's CPU profile (bench --profile).
 * Keyed by the model's entity object, so a reloaded spec gets fresh schemas.
 */
const schemas = new WeakMap<EntityModel, ListParamsSchema>();

function schemaFor(entity: EntityModel): ListParamsSchema {
  let schema = schemas.get(entity);
  if (!schema) {
    schema = buildSchema(entity);
    schemas.set(entity, schema);
  }
  return schema;
}

export function parseListParams(entity: EntityModel, raw: RawSearchParams): { params: ListParams; problem: string | null } {
  const parsed = schemaFor(entity).safeParse(raw);
  if (!parsed.success) {
    return { params: EMPTY_LIST_PARAMS, problem: parsed.error.issues.map((i) => i.message).join(' ') };
  }
  // The four named parameters always come out of the schema as strings; the filters are looked up by name.
  const data = parsed.data as {
    readonly sort: string;
    readonly q: string;
    readonly cursor: string;
    readonly columns: string;
    readonly view: ListView;
  } & Readonly<Record<string, string>>;
  const filters = Object.fromEntries(entity.list.filters.map((field) => [field, data[filterParam(field)] ?? '']));
  const params = { sort: data.sort, q: data.q, cursor: data.cursor, filters, columns: splitColumns(data.columns), view: data.view };
  return { params, problem: null };
}

export function toListQuery(params: ListParams): ListQuery {
  const filters = Object.fromEntries(Object.entries(params.filters).filter(([, value]) => value !== ''));
  const q = params.q.trim();
  return {
    ...(params.sort ? { sort: params.sort } : {}),
    ...(q ? { q } : {}),
    ...(params.cursor ? { cursor: params.cursor } : {}),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
  };
}

/** A query string with its commas as they are (`columns=id,subject`): allowed there, and easier to read in a shared link. */
function readableQuery(search: URLSearchParams): string {
  return search.toString().replace(/%2C/gi, ',');
}

/** The search parameters of a list state, in the order addresses show them; empty ones are left out. */
function listSearch(params: ListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  for (const [field, value] of Object.entries(params.filters)) if (value) search.set(filterParam(field), value);
  if (params.sort) search.set('sort', params.sort);
  if (params.columns.length > 0) search.set('columns', params.columns.join(','));
  if (params.view) search.set('view', params.view);
  if (params.cursor) search.set('cursor', params.cursor);
  return search;
}

/**
 * The address of a list with these parameters; empty ones are left out. `path` is where the list
 * lives: an entity's list ("/tickets") or a custom route showing one ("/queue").
 */
export function listAddress(path: string, params: ListParams, change: Partial<ListParams> = {}): string {
  const query = readableQuery(listSearch({ ...params, ...change }));
  return query ? `${path}?${query}` : path;
}

/** What a saved view keeps of a list: everything but the page. */
export function listStateOf(params: ListParams): ListState {
  const filters = Object.fromEntries(Object.entries(params.filters).filter(([, value]) => value !== ''));
  return { filters, q: params.q.trim(), sort: params.sort, columns: params.columns, ...layoutOf(params.view) };
}

/** A saved list state as list parameters (at the first page). */
export function paramsOfState(state: ListState): ListParams {
  return { filters: state.filters, q: state.q, sort: state.sort, columns: state.columns, cursor: '', view: state.layout ?? '' };
}

/** The columns the chooser's form asked for: ticked ones in the order shown, after its move. */
function chosenColumns(search: URLSearchParams): string[] {
  const order = [...new Set(search.getAll(COLUMN_FORM.order))];
  const shown = new Set(search.getAll(COLUMN_FORM.show));
  const [name = '', direction] = (search.get(COLUMN_FORM.move) ?? '').split(':');
  const from = order.indexOf(name);
  const to = direction === 'up' ? from - 1 : direction === 'down' ? from + 1 : -1;
  // Taken out and put back one place up or down: the two neighbours swap.
  if (from >= 0 && to >= 0 && to < order.length) order.splice(to, 0, ...order.splice(from, 1));
  return order.filter((column) => shown.has(column));
}

/**
 * The clean address of a list when the one received is not: a GET form without JavaScript sends
 * its empty fields (`?q=&state=`) and the column chooser sends its own fields. Null when the
 * address is already clean. Other parameters are kept as they are (ops or the page judge them).
 * `defaultColumns` are the columns shown without `columns=`: choosing exactly them leaves it out.
 */
export function cleanListAddress(path: string, raw: RawSearchParams, defaultColumns: readonly string[]): string | null {
  const received = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) received.append(key, item);
  }
  const chooser = [...received.keys()].some((key) => COLUMN_FORM_PARAMS.has(key));
  const clean = new URLSearchParams();
  for (const [key, value] of received) {
    if (value.trim() === '' || COLUMN_FORM_PARAMS.has(key) || (chooser && (key === 'columns' || key === 'cursor'))) continue;
    clean.append(key, value);
  }
  if (chooser) {
    const columns = chosenColumns(received);
    if (columns.length > 0 && columns.join(',') !== defaultColumns.join(',')) clean.set('columns', columns.join(','));
  }
  if (clean.toString() === received.toString()) return null;
  const query = readableQuery(clean);
  return query ? `${path}?${query}` : path;
}

/** The query string of an address as received, so that signing in comes back to the same page. */
export function searchSuffix(raw: RawSearchParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(key, item);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
