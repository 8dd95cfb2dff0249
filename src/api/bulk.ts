import { writtenOnlyByCalls } from '@/engine/access/policy';
import type { EntityModel } from '@/engine/spec/model';
import { readJsonObject } from './body';
import { bulkItems, deleteResults, isObject, rowResults, unknownKeys } from './bulk-rows';
import { json } from './json';
import { invalid } from './record-id';
import { actorOf, type Route } from './routes';
import type { WireBulkDeleteResults, WireBulkTransitionResults } from './wire';

/**
 * An entity's writes on many records at once, as the list page's bulk panel does them: one update
 * of the same fields on each (`POST /<plural>/bulk-update`), or a delete of each
 * (`POST /<plural>/bulk-delete`). Each row is its own ops call with its own version check, so one
 * refusal neither blocks nor undoes the others; the answer is 200 with a result per row. Not for
 * an entity only the spec's calls write (its records take no write from the API).
 */
export function bulkRoutes(entity: EntityModel): Route[] {
  if (writtenOnlyByCalls(entity)) return [];
  const signedIn = { access: 'signedIn', originCheck: true } as const;
  return [
    {
      ...signedIn,
      method: 'POST',
      path: [entity.plural, 'bulk-update'],
      run: async (call) => {
        const body = await readJsonObject(call.request, call.limits.maxBodyBytes);
        const errors = unknownKeys(body, ['items', 'input']);
        const items = bulkItems(body.items, errors);
        const { input } = body;
        if (!isObject(input) || Object.keys(input).length === 0) {
          errors.push({
            field: 'input',
            code: input === undefined ? 'required' : 'invalid_type',
            message: 'Send "input": an object of the field values to set on every record.',
          });
        }
        if (errors.length > 0) throw invalid(errors);
        const outcomes = await call.engine.ops.bulkUpdate(actorOf(call), entity.name, items, input as Record<string, unknown>);
        const wire: WireBulkTransitionResults = { results: await rowResults(call, entity, outcomes) };
        return json(wire);
      },
    },
    {
      ...signedIn,
      method: 'POST',
      path: [entity.plural, 'bulk-delete'],
      run: async (call) => {
        const body = await readJsonObject(call.request, call.limits.maxBodyBytes);
        const errors = unknownKeys(body, ['items']);
        const items = bulkItems(body.items, errors);
        if (errors.length > 0) throw invalid(errors);
        const outcomes = await call.engine.ops.bulkDelete(actorOf(call), entity.name, items);
        const wire: WireBulkDeleteResults = { results: deleteResults(call, outcomes) };
        return json(wire);
      },
    },
  ];
}
