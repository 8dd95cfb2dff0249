import { z } from 'zod';
import type { ListQuery } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';

/**
 * The search parameters of a list page: untrusted, so their shape is checked here; what they
 * mean (is this a sortable column? a valid cursor?) is checked by ops.list.
 */
export interface ListParams {
  readonly sort: string;
  readonly q: string;
  readonly cursor: string;
  /** Filter values by field name; empty means no filter. */
  readonly filters: Readonly<Record<string, string>>;
}

export type RawSearchParams = Readonly<Record<string, string | string[] | undefined>>;

const RESERVED = new Set(['sort', 'q', 'cursor']);

/** The search parameter a filter uses: the field's name, unless that name is taken by the list itself. */
export function filterParam(field: string): string {
  return RESERVED.has(field) ? `filter.${field}` : field;
}

/** One value per parameter: a repeated parameter counts by its first value. */
const single = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')));

function buildSchema(entity: EntityModel) {
  return z.object({
    sort: single.pipe(z.string().max(100, 'The sort is too long.')),
    q: single.pipe(z.string().max(200, 'The search is too long (200 characters at most).')),
    cursor: single.pipe(z.string().max(2000, 'The page cursor is too long.')),
    ...Object.fromEntries(
      entity.list.filters.map((field) => [filterParam(field), single.pipe(z.string().max(200, `The ${field} filter is too long.`))]),
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
    return { params: { sort: '', q: '', cursor: '', filters: {} }, problem: parsed.error.issues.map((i) => i.message).join(' ') };
  }
  const data = parsed.data as Record<string, string>;
  const filters = Object.fromEntries(entity.list.filters.map((field) => [field, data[filterParam(field)] ?? '']));
  return { params: { sort: data.sort, q: data.q, cursor: data.cursor, filters }, problem: null };
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

/**
 * The address of a list with these parameters; empty ones are left out. `path` is where the list
 * lives: an entity's list ("/tickets") or a custom route showing one ("/queue").
 */
export function listAddress(path: string, params: ListParams, change: Partial<ListParams> = {}): string {
  const next = { ...params, ...change };
  const search = new URLSearchParams();
  if (next.q) search.set('q', next.q);
  for (const [field, value] of Object.entries(next.filters)) if (value) search.set(filterParam(field), value);
  if (next.sort) search.set('sort', next.sort);
  if (next.cursor) search.set('cursor', next.cursor);
  const query = search.toString();
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
