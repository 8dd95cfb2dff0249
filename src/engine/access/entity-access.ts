import type { Actor } from '../ground/actor';
import type { AppModel, EntityModel } from '../spec/model';
import { mayTransition } from './authorize';
import { grantsFor } from './grants';
import { RECORD_ACTIONS, type RecordAction } from './record-actions';
import { readableFields, writableFields } from './fields';

/**
 * What the actor may do with an entity, for the doors to know what to OFFER (navigation,
 * buttons, columns, form fields). It decides nothing on its own: ops checks every call with the
 * same rules and has the last word, row scopes included (an action offered here may still be
 * refused for one record, as not found or forbidden).
 */
export interface EntityAccess {
  /** Whether some role of the actor grants the action (on some records). */
  readonly actions: Readonly<Record<RecordAction, boolean>>;
  /** Workflow transitions by name: whether the actor may take it on some record. */
  readonly transitions: Readonly<Record<string, boolean>>;
  /** Declared fields the actor may read, in spec order (the system columns and the state always). */
  readonly readable: readonly string[];
  /** Declared fields the actor may write, in spec order. */
  readonly writable: { readonly create: readonly string[]; readonly update: readonly string[] };
  /**
   * The reference field every list scope of the actor goes through (`via`), or null: such records
   * (a customer's comments, reached through their tickets) are met under the record they belong
   * to, so the entity is no place of its own in the actor's navigation.
   */
  readonly listedVia: string | null;
}

export function accessFor(model: AppModel, entity: EntityModel, actor: Actor): EntityAccess {
  const actions = Object.fromEntries(RECORD_ACTIONS.map((a) => [a, grantsFor(entity, actor, a).length > 0])) as Record<
    RecordAction,
    boolean
  >;
  const transitions = Object.fromEntries(
    (entity.workflow?.transitions ?? []).map((t) => [t.name, mayTransition(model, entity, actor, t.name)]),
  );
  return {
    actions,
    transitions,
    readable: actions.list || actions.read ? readableFields(entity, actor) : [],
    writable: {
      create: actions.create ? writableFields(entity, actor, 'create') : [],
      update: actions.update ? writableFields(entity, actor, 'update') : [],
    },
    listedVia: listedVia(entity, actor),
  };
}

/** The one `via` reference shared by all of the actor's list scopes, or null. */
function listedVia(entity: EntityModel, actor: Actor): string | null {
  const vias = new Set(grantsFor(entity, actor, 'list').map(({ scope }) => (scope === true ? undefined : scope.via)));
  const [only] = vias;
  return vias.size === 1 && only !== undefined ? only : null;
}
