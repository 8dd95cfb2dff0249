import 'server-only';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { viewableState } from '@/engine/views/list-state';
import type { ListState, SavedView } from '@/engine/views/types';
import { listAddress, paramsOfState } from './list-query';

/** A saved view as a viewer may open it: its state without what the viewer may not read, and its address. */
export interface OpenableView {
  readonly view: SavedView;
  readonly state: ListState;
  readonly href: string;
}

export function openable(engine: Engine, actor: Actor, entity: EntityModel, view: SavedView): OpenableView {
  const readable = new Set(engine.ops.access(actor, entity.name).readable);
  const { state } = viewableState(entity, readable, view.state);
  // Filters in the list's own order, as its page writes them (stored JSON keeps no order).
  const filters = Object.fromEntries(
    entity.list.filters.flatMap((name) => {
      const value = state.filters[name];
      return value ? [[name, value] as const] : [];
    }),
  );
  return { view, state, href: listAddress(`/${entity.plural}`, paramsOfState({ ...state, filters })) };
}

/** The views the actor sees, openable, by entity name (for the navigation and the palette). */
export async function openableViewsByEntity(engine: Engine, actor: Actor): Promise<Map<string, OpenableView[]>> {
  const byEntity = new Map<string, OpenableView[]>();
  for (const view of await engine.views.list(actor)) {
    const entity = engine.model.entitiesByName[view.entity];
    if (!entity) continue;
    byEntity.set(view.entity, [...(byEntity.get(view.entity) ?? []), openable(engine, actor, entity, view)]);
  }
  return byEntity;
}
