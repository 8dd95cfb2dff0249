import type { FieldError } from '@/engine/errors/ninefold-error';
import type { EntityModel, TransitionModel } from '@/engine/spec/model';
import { readJsonObject, readOptionalJsonObject } from './body';
import { json } from './json';
import { etag, takeVersion } from './records';
import { invalid, recordId } from './record-id';
import { actorOf, type ApiRequest, type Route } from './routes';
import { describeRecordFiles } from './file-wire';
import { bulkItems, isObject, rowResults, unknownKeys } from './bulk-rows';
import {
  HISTORY_PAGE_SIZE,
  historyEntryToWire,
  historyMaxPageSize,
  recordToWire,
  type WireBulkTransitionResults,
  type WireHistoryPage,
} from './wire';

/**
 * The workflow routes of one entity: a record's history (every entity), and for an entity with a
 * workflow one path per transition, for one record and for many. An unknown transition name is
 * an address the API does not have (404), as for an entity without a workflow: the paths are
 * exactly those of the OpenAPI document.
 */

const HISTORY_PARAMS = ['limit', 'cursor'] as const;
const TRANSITION_KEYS = ['version', 'comment', 'input'];
const BULK_KEYS = ['items', 'comment', 'input'];

function historyQuery(call: ApiRequest): { limit: number; cursor?: string } {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const name of call.url.searchParams.keys()) {
    if (seen.has(name)) {
      if (!errors.some((e) => e.field === name))
        errors.push({ field: name, code: 'repeated_parameter', message: `The parameter "${name}" is given more than once.` });
      continue;
    }
    seen.add(name);
    if (!(HISTORY_PARAMS as readonly string[]).includes(name)) {
      errors.push({
        field: name,
        code: 'unknown_parameter',
        message: `"${name}" is not a parameter of the history (parameters: ${HISTORY_PARAMS.join(', ')}).`,
      });
    }
  }
  const max = historyMaxPageSize(call.limits.maxPageSize);
  let limit = Math.min(HISTORY_PAGE_SIZE, max);
  const rawLimit = call.url.searchParams.get('limit');
  if (rawLimit !== null) {
    const n = /^\d{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(n >= 1 && n <= max))
      errors.push({ field: 'limit', code: 'invalid_limit', message: `The page size must be a whole number from 1 to ${max}.` });
    else limit = n;
  }
  const cursor = call.url.searchParams.get('cursor');
  if (cursor && !/^\d{1,15}$/.test(cursor)) {
    errors.push({ field: 'cursor', code: 'invalid_cursor', message: 'The cursor is not valid: pass the nextCursor of the previous page.' });
  }
  if (errors.length > 0) throw invalid(errors);
  return { limit, ...(cursor ? { cursor } : {}) };
}

/** `comment` and `input` of a transition body, checked for shape; their content is ops' to check. */
function commentAndInput(body: Record<string, unknown>, errors: FieldError[]): { comment?: string; input?: Record<string, unknown> } {
  const { comment, input } = body;
  if (comment !== undefined && comment !== null && typeof comment !== 'string') {
    errors.push({ field: 'comment', code: 'invalid_type', message: 'The comment must be text.' });
  }
  if (input !== undefined && input !== null && !isObject(input)) {
    errors.push({ field: 'input', code: 'invalid_type', message: 'The input must be an object of field values.' });
  }
  return {
    ...(typeof comment === 'string' ? { comment } : {}),
    ...(isObject(input) ? { input } : {}),
  };
}

function transitionRoutes(entity: EntityModel, transition: TransitionModel): Route[] {
  const signedIn = { access: 'signedIn', originCheck: true } as const;
  return [
    {
      ...signedIn,
      method: 'POST',
      path: [entity.plural, { param: 'id' }, 'transitions', transition.name],
      run: async (call) => {
        const actor = actorOf(call);
        const id = recordId(call.params.id);
        const body = (await readOptionalJsonObject(call.request, call.limits.maxBodyBytes)) ?? {};
        const { version, input: rest } = takeVersion(call, body);
        const errors = unknownKeys(rest, TRANSITION_KEYS);
        const request = commentAndInput(rest, errors);
        if (errors.length > 0) throw invalid(errors);
        const record = await call.engine.ops.transition(actor, entity.name, id, transition.name, { version, ...request });
        return json(recordToWire(entity, record, await describeRecordFiles(call.engine, entity, [record])), {
          headers: { etag: etag(record.version) },
        });
      },
    },
    {
      ...signedIn,
      method: 'POST',
      path: [entity.plural, 'transitions', transition.name],
      run: async (call) => {
        const actor = actorOf(call);
        const body = await readJsonObject(call.request, call.limits.maxBodyBytes);
        const errors = unknownKeys(body, BULK_KEYS);
        const items = bulkItems(body.items, errors);
        const request = commentAndInput(body, errors);
        if (errors.length > 0) throw invalid(errors);
        const outcomes = await call.engine.ops.bulkTransition(actor, entity.name, transition.name, items, request);
        const results = await rowResults(call, entity, outcomes);
        const wire: WireBulkTransitionResults = { results };
        return json(wire);
      },
    },
  ];
}

export function workflowRoutes(entity: EntityModel): Route[] {
  const history: Route = {
    access: 'signedIn',
    originCheck: true,
    method: 'GET',
    path: [entity.plural, { param: 'id' }, 'history'],
    run: async (call) => {
      const id = recordId(call.params.id);
      const query = historyQuery(call);
      const page = await call.engine.ops.history(actorOf(call), entity.name, id, query);
      const body: WireHistoryPage = { items: page.entries.map((entry) => historyEntryToWire(entity, entry)), nextCursor: page.nextCursor };
      return json(body);
    },
  };
  return [history, ...(entity.workflow?.transitions ?? []).flatMap((transition) => transitionRoutes(entity, transition))];
}
