import { accessFor } from '../access/entity-access';
import { groupTotals, mayQuery, perDay } from './aggregate';
import { boardRecords } from './board';
import { listChoices } from './choices';
import { createManyRecords } from './create-many';
import { lookupReferences } from './lookup';
import { mayCreate } from './may-create';
import { ownRecordDefaults } from './own-record-defaults';
import { entityOf, type OpsContext } from './context';
import { countRecords, listRecords } from './list';
import type { Ops } from './ops';
import { readHistory } from './history';
import { getRecord, getRecordBy } from './read';
import { searchRecords } from './search';
import { readableRecords } from './readable';
import { bulkTransition, transitionRecord } from './transition';
import { bulkDelete, bulkUpdate } from './bulk-write';
import { createRecord, deleteRecord, updateRecord } from './write';

/** The engine's operations over one database, for any actor. */
export function createOps(ctx: OpsContext): Ops {
  return {
    access: (actor, entity) => accessFor(ctx.model, entityOf(ctx.model, entity), actor),
    mayQuery: (actor, entity, query) => mayQuery(ctx, actor, entity, query),
    list: (actor, entity, query) => listRecords(ctx, actor, entity, query),
    count: (actor, entity, query, cap) => countRecords(ctx, actor, entity, query, cap),
    search: (actor, entity, q, options) => searchRecords(ctx, actor, entity, q, options),
    groupTotals: (actor, entity, query) => groupTotals(ctx, actor, entity, query),
    board: (actor, entity, query) => boardRecords(ctx, actor, entity, query),
    perDay: (actor, entity, query) => perDay(ctx, actor, entity, query),
    readable: (actor, entity, changed) => readableRecords(ctx, actor, entity, changed),
    get: (actor, entity, id) => getRecord(ctx, actor, entity, id),
    getBy: (actor, entity, field, value) => getRecordBy(ctx, actor, entity, field, value),
    create: (actor, entity, input, options) => createRecord(ctx, actor, entity, input, options),
    mayCreate: (actor, entity, values) => mayCreate(ctx, actor, entity, values),
    createDefaults: (actor, entity) => ownRecordDefaults(ctx, entityOf(ctx.model, entity), actor),
    createMany: (actor, entity, inputs, options) => createManyRecords(ctx, actor, entity, inputs, options),
    lookup: (actor, entity, field, values) => lookupReferences(ctx, actor, entity, field, values),
    update: (actor, entity, id, input, version) => updateRecord(ctx, actor, entity, id, input, version),
    delete: (actor, entity, id, version) => deleteRecord(ctx, actor, entity, id, version),
    bulkUpdate: (actor, entity, items, input) => bulkUpdate(ctx, actor, entity, items, input),
    bulkDelete: (actor, entity, items) => bulkDelete(ctx, actor, entity, items),
    transition: (actor, entity, id, name, request) => transitionRecord(ctx, actor, entity, id, name, request),
    bulkTransition: (actor, entity, name, items, request) => bulkTransition(ctx, actor, entity, name, items, request),
    history: (actor, entity, id, query) => readHistory(ctx, actor, entity, id, query),
    choices: (actor, entity, field, options) => listChoices(ctx, actor, entity, field, options),
  };
}
