import type { AppModel, EntityModel } from '../spec/model';
import { PUBLIC_ROLE } from './visitor';

/*
 * What the spec opens to visitors who are not signed in, as facts the doors ask (which pages
 * render without sign-in, which API operations answer without credentials). Whether a visitor
 * may see one record or write one field is still decided by ops, with the visitor actor: these
 * say only where a door lets a visitor knock at all.
 */

/** The actions a grant to `public` may hold (the spec check refuses the others). */
export type VisitorAction = 'list' | 'read' | 'create';

/** Whether the spec grants visitors this action on the entity (whatever its scope). */
export function visitorMay(entity: EntityModel, action: VisitorAction): boolean {
  const grant = Object.hasOwn(entity.permissions, PUBLIC_ROLE) ? entity.permissions[PUBLIC_ROLE] : undefined;
  if (grant?.[action] === undefined) return false;
  // Only the spec's calls write such an entity, and visitors make no calls.
  return !(action === 'create' && entity.writtenBy === 'calls');
}

const welcome = new WeakMap<AppModel, boolean>();

/** Whether the spec grants visitors anything at all; without, every page and operation needs a sign-in, as before. */
export function visitorsWelcome(model: AppModel): boolean {
  let answer = welcome.get(model);
  if (answer === undefined) {
    answer =
      model.entities.some((e) => visitorMay(e, 'list') || visitorMay(e, 'read') || visitorMay(e, 'create')) ||
      model.routes.some((r) => r.roles?.includes(PUBLIC_ROLE) ?? false);
    welcome.set(model, answer);
  }
  return answer;
}
