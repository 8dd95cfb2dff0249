import { visitorMay, writtenOnlyByCalls } from '@/engine/access/policy';
import { NinefoldError, type FieldError } from '@/engine/errors/ninefold-error';
import { filterableFields } from '@/engine/ops/list-query';
import type { CreateOptions } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import { readJsonObject } from './body';
import { json } from './json';
import { actorOf, API_PREFIX, type ApiRequest, type Route } from './routes';
import { describeRecordFiles } from './file-wire';
import { isMultipart } from './multipart';
import { readMultipartInput, withStagedFiles, type MultipartInput } from './multipart-input';
import { fileFields } from '@/engine/spec/file-fields';
import { recordToWire, type WireListPage } from './wire';
import { invalid, recordId } from './record-id';

/** The generated record routes of one entity: list, create, read, change, delete. */

/** Query parameters every list has; a filter field of the same name is not offered. */
const LIST_PARAMS = ['q', 'sort', 'limit', 'cursor'] as const;

/** `"3"`, `W/"3"` or `3` → 3; absent or `*` → undefined; anything else → 422. */
export function parseIfMatch(header: string | null): number | undefined {
  if (header === null || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?([1-9]\d{0,9})"?\s*$/.exec(header);
  const quotes = match ? (header.match(/"/g) ?? []).length : 0;
  if (!match || (quotes !== 0 && quotes !== 2)) {
    throw invalid([{ field: 'If-Match', code: 'invalid_version', message: 'If-Match must be the ETag of the record, e.g. "3".' }]);
  }
  return Number(match[1]);
}

/**
 * A write's body: JSON, or multipart where the entity has file fields (text parts as a form
 * posts them, file parts staged for their field; see multipart-input.ts).
 */
async function readWrite(call: ApiRequest, entity: EntityModel): Promise<MultipartInput> {
  if (!isMultipart(call.request) || fileFields(entity).length === 0)
    return { input: await readJsonObject(call.request, call.limits.maxBodyBytes), staged: [] };
  const { input, staged } = await readMultipartInput(call.engine, actorOf(call), call.request, entity.fields);
  // The version as a form posts it: digits.
  const version = typeof input.version === 'string' && /^\d{1,15}$/.test(input.version) ? { version: Number(input.version) } : {};
  return { input: { ...input, ...version }, staged };
}

export const etag = (version: number) => `"${version}"`;

/** `?replyWith=<transition>`: a reply that takes a transition of the record it replies to (ops checks it is offered). */
function createOptions(call: ApiRequest): CreateOptions {
  const given = call.url.searchParams.getAll('replyWith');
  if (given.length > 1)
    throw invalid([{ field: 'replyWith', code: 'repeated_parameter', message: 'The parameter "replyWith" is given more than once.' }]);
  return given.length === 1 ? { replyWith: given[0] } : {};
}

function listQuery(call: ApiRequest, entity: EntityModel) {
  const filters = filterableFields(entity).filter((name) => !(LIST_PARAMS as readonly string[]).includes(name));
  const known = new Set<string>([...LIST_PARAMS, ...filters]);
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const name of call.url.searchParams.keys()) {
    if (seen.has(name)) {
      if (!errors.some((e) => e.field === name)) {
        errors.push({ field: name, code: 'repeated_parameter', message: `The parameter "${name}" is given more than once.` });
      }
      continue;
    }
    seen.add(name);
    if (!known.has(name)) {
      errors.push({
        field: name,
        code: 'unknown_parameter',
        message: `"${name}" is not a parameter of this list (parameters: ${[...known].join(', ')}).`,
      });
    }
  }
  const params = call.url.searchParams;
  const max = call.limits.maxPageSize;
  let limit = Math.min(entity.list.pageSize, max);
  const rawLimit = params.get('limit');
  if (rawLimit !== null) {
    const n = /^\d{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(n >= 1 && n <= max))
      errors.push({ field: 'limit', code: 'invalid_limit', message: `The page size must be a whole number from 1 to ${max}.` });
    else limit = n;
  }
  if (errors.length > 0) throw invalid(errors);
  const filterValues: Record<string, string> = {};
  for (const name of filters) {
    const value = params.get(name);
    if (value !== null) filterValues[name] = value;
  }
  return {
    filters: filterValues,
    limit,
    ...(params.get('q') !== null ? { q: params.get('q')! } : {}),
    ...(params.get('sort') ? { sort: params.get('sort')! } : {}),
    ...(params.get('cursor') ? { cursor: params.get('cursor')! } : {}),
  };
}

/**
 * The version a change is based on: If-Match, or `version` in the body (taken out of the
 * input). Neither → 428; both, different → 422.
 */
export function takeVersion(call: ApiRequest, body: Record<string, unknown>): { version: number; input: Record<string, unknown> } {
  const fromHeader = parseIfMatch(call.request.headers.get('if-match'));
  const { version: fromBody, ...input } = body;
  if (fromBody !== undefined && !(typeof fromBody === 'number' && Number.isSafeInteger(fromBody) && fromBody >= 1)) {
    throw invalid([{ field: 'version', code: 'invalid_version', message: 'The version must be a positive whole number.' }]);
  }
  if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody) {
    throw invalid([{ field: 'version', code: 'version_mismatch', message: 'If-Match and version name different versions; send one.' }]);
  }
  const version = fromHeader ?? (fromBody as number | undefined);
  if (version === undefined) {
    throw new NinefoldError(
      'PRECONDITION_REQUIRED',
      'Send the version of the record you saw: If-Match: "<version>" (the ETag) or "version" in the body.',
    );
  }
  return { version, input };
}

/**
 * An entity only the spec's calls write has its read routes only: a write to its addresses is
 * 405 METHOD_NOT_ALLOWED with the Allow header (as any method a path lacks), and the OpenAPI
 * document has no such operations.
 */
export function recordRoutes(entity: EntityModel): Route[] {
  const routes = allRecordRoutes(entity);
  return writtenOnlyByCalls(entity) ? routes.filter((route) => route.method === 'GET') : routes;
}

function allRecordRoutes(entity: EntityModel): Route[] {
  const collection = [entity.plural];
  const one = [entity.plural, { param: 'id' }];
  const signedIn = { access: 'signedIn', originCheck: true } as const;
  return [
    {
      ...signedIn,
      visitors: visitorMay(entity, 'list'),
      method: 'GET',
      path: collection,
      run: async (call) => {
        const page = await call.engine.ops.list(actorOf(call), entity.name, listQuery(call, entity));
        const files = await describeRecordFiles(call.engine, entity, page.rows);
        const body: WireListPage = { items: page.rows.map((row) => recordToWire(entity, row, files)), nextCursor: page.nextCursor };
        return json(body);
      },
    },
    {
      ...signedIn,
      visitors: visitorMay(entity, 'create'),
      method: 'POST',
      path: collection,
      run: async (call) => {
        const actor = actorOf(call);
        const { input, staged } = await readWrite(call, entity);
        const record = await withStagedFiles(call.engine, actor, staged, () =>
          call.engine.ops.create(actor, entity.name, input, createOptions(call)),
        );
        return json(recordToWire(entity, record, await describeRecordFiles(call.engine, entity, [record])), {
          status: 201,
          headers: { location: `${API_PREFIX}/${entity.plural}/${record.id}`, etag: etag(record.version) },
        });
      },
    },
    {
      ...signedIn,
      visitors: visitorMay(entity, 'read'),
      method: 'GET',
      path: one,
      run: async (call) => {
        const { record } = await call.engine.ops.get(actorOf(call), entity.name, recordId(call.params.id));
        return json(recordToWire(entity, record, await describeRecordFiles(call.engine, entity, [record])), {
          headers: { etag: etag(record.version) },
        });
      },
    },
    {
      ...signedIn,
      method: 'PATCH',
      path: one,
      run: async (call) => {
        const actor = actorOf(call);
        const id = recordId(call.params.id);
        const body = await readWrite(call, entity);
        const record = await withStagedFiles(call.engine, actor, body.staged, async () => {
          const { version, input } = takeVersion(call, body.input);
          return call.engine.ops.update(actor, entity.name, id, input, version);
        });
        return json(recordToWire(entity, record, await describeRecordFiles(call.engine, entity, [record])), {
          headers: { etag: etag(record.version) },
        });
      },
    },
    {
      ...signedIn,
      method: 'DELETE',
      path: one,
      run: async (call) => {
        const actor = actorOf(call);
        const id = recordId(call.params.id);
        await call.engine.ops.delete(actor, entity.name, id, parseIfMatch(call.request.headers.get('if-match')));
        return new Response(null, { status: 204 });
      },
    },
  ];
}
