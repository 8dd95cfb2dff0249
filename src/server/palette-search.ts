import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { recordTitle } from '@/engine/ops/record-title';
import type { PaletteGroup, PaletteRecord } from '@/ui/palette/palette-groups';
import { EMPTY_LIST_PARAMS, listAddress } from './list-query';
import { PALETTE_QUERY_MAX, parseRecordId } from './palette-query';

/** Records shown per entity: the palette is for jumping, the list for browsing. */
export const PALETTE_RECORDS_PER_ENTITY = 5;

/**
 * The records the command palette offers for what the actor typed, grouped by entity: by id
 * ("123", "#123") in every entity the actor may read, first; then by the entity's full-text
 * search, best first (ops `search`), where the actor may list it and read every searchable field
 * (as the list's search box), with the address of that list searched for the same words, for
 * all results. Everything goes through ops, so scopes and hidden fields hold: a record out of
 * the actor's reach is simply not found, and titles never carry a field the actor may not read.
 */
export async function searchPalette(engine: Engine, actor: Actor, rawQuery: string): Promise<PaletteGroup[]> {
  const query = rawQuery.trim().slice(0, PALETTE_QUERY_MAX);
  if (query === '') return [];
  const id = parseRecordId(query);
  const groups = await Promise.all(
    entitiesInOrder(engine).map(async (entity): Promise<PaletteGroup | null> => {
      const [byId, bySearch] = await Promise.all([
        id === null ? null : recordById(engine, actor, entity, id),
        recordsBySearch(engine, actor, entity, query),
      ]);
      const records = [...(byId ? [byId] : []), ...bySearch.filter((record) => record.id !== byId?.id)];
      if (records.length === 0) return null;
      const group = { entity: entity.name, label: entity.pluralLabel, records };
      return bySearch.length === 0 ? group : { ...group, allHref: listAddress(`/${entity.plural}`, EMPTY_LIST_PARAMS, { q: query }) };
    }),
  );
  return groups.filter((group): group is PaletteGroup => group !== null);
}

/** The navigation's entities first, in its order, then the others in the spec's. */
function entitiesInOrder(engine: Engine): EntityModel[] {
  const { navigation, entities } = engine.model;
  return [...navigation, ...entities.filter((entity) => !navigation.includes(entity))];
}

async function recordById(engine: Engine, actor: Actor, entity: EntityModel, id: number): Promise<PaletteRecord | null> {
  const access = engine.ops.access(actor, entity.name);
  if (!access.actions.read && !access.actions.list) return null;
  try {
    const view = await engine.ops.get(actor, entity.name, id);
    return found(entity, view.record, view.references);
  } catch (error) {
    if (asNinefoldError(error)) return null;
    throw error;
  }
}

async function recordsBySearch(engine: Engine, actor: Actor, entity: EntityModel, query: string): Promise<PaletteRecord[]> {
  const access = engine.ops.access(actor, entity.name);
  const readable = new Set(access.readable);
  if (!access.actions.list || entity.searchFields.length === 0 || !entity.searchFields.every((name) => readable.has(name))) return [];
  try {
    const page = await engine.ops.search(actor, entity.name, query, { limit: PALETTE_RECORDS_PER_ENTITY });
    return page.rows.map((record) => found(entity, record, page.references));
  } catch (error) {
    // A refusal of one entity's search (a field hidden by a rule ops knows better) leaves the others.
    if (asNinefoldError(error)) return [];
    throw error;
  }
}

function found(entity: EntityModel, record: RecordData, references: ReferenceTitles): PaletteRecord {
  const workflow = entity.workflow;
  const state = workflow ? workflow.states.find((s) => s.name === record[workflow.field])?.label : undefined;
  return {
    id: record.id,
    title: recordTitle(entity, record, references),
    href: `/${entity.plural}/${record.id}`,
    ...(state ? { state } : {}),
  };
}
