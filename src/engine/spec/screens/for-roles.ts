import { PUBLIC_ROLE } from '../../access/visitor';
import type { Actor } from '../../ground/actor';
import type { AppModel, EntityModel, RoleListModel, WorkflowModel } from '../model';

/**
 * What a spec chooses per role (`roles: { <role>: ... }` on a list screen, a state, the purpose)
 * applies to a viewer whose every role has a choice: the first, in the spec's order. A viewer
 * holding one role without a choice (a customer who is also an agent) keeps the general one, as
 * with reader pages: one working role keeps the screens that role works with.
 */
export function choiceFor<T>(byRole: Readonly<Record<string, T>>, actor: Pick<Actor, 'roles'>): T | null {
  const held = actor.roles.length === 0 ? [PUBLIC_ROLE] : actor.roles;
  if (!held.every((role) => Object.hasOwn(byRole, role))) return null;
  const first = Object.keys(byRole).find((role) => held.includes(role));
  return first === undefined ? null : byRole[first]!;
}

/** The entity's list as this viewer sees it: their role's columns, filters, sort, bulk and import. */
export function listFor(entity: EntityModel, actor: Pick<Actor, 'roles'>): RoleListModel {
  return choiceFor(entity.list.roles, actor) ?? entity.list;
}

/** The purpose's summary in the viewer's words, else the spec's own. */
export function summaryFor(model: AppModel, actor: Pick<Actor, 'roles'>): string | null {
  return choiceFor(model.summaries, actor) ?? model.summary;
}

/** The workflow with each state's label and description in the viewer's words where the spec gives them. */
export function workflowFor(workflow: WorkflowModel, actor: Pick<Actor, 'roles'>): WorkflowModel {
  if (workflow.states.every((s) => choiceFor(s.roles, actor) === null)) return workflow;
  return {
    ...workflow,
    states: workflow.states.map((state) => {
      const words = choiceFor(state.roles, actor);
      if (!words) return state;
      const { description: _general, ...rest } = state;
      return { ...rest, label: words.label, ...(words.description ? { description: words.description } : {}) };
    }),
  };
}

const viewed = new WeakMap<EntityModel, Map<string, EntityModel>>();

/**
 * The entity as its pages show it to this viewer: their list and their words for its states.
 * Built once per entity and set of roles. Pages pass it on; ops reads the entity by name, so
 * nothing it decides changes.
 */
export function entityFor(entity: EntityModel, actor: Pick<Actor, 'roles'>): EntityModel {
  const key = actor.roles.join('\n');
  let byRoles = viewed.get(entity);
  if (!byRoles) viewed.set(entity, (byRoles = new Map()));
  const known = byRoles.get(key);
  if (known) return known;
  const list = listFor(entity, actor);
  const workflow = entity.workflow ? workflowFor(entity.workflow, actor) : null;
  const own =
    list === entity.list && workflow === entity.workflow ? entity : { ...entity, list: { ...list, roles: entity.list.roles }, workflow };
  byRoles.set(key, own);
  return own;
}
