import type { Actor } from '../ground/actor';

/**
 * The built-in role of visitors who are not signed in. A spec grants it like any role (list and
 * read with scopes and hidden fields, create for a contact form); every signed-in user holds its
 * grants too, since what anyone may see a user who signed in may see as well. A spec that grants
 * it nothing behaves as if it did not exist: visitors are sent to sign in.
 */
export const PUBLIC_ROLE = 'public';

const VISITOR: Actor = Object.freeze({
  userId: 0,
  email: '',
  name: 'Visitor',
  roles: Object.freeze([PUBLIC_ROLE]),
  fields: Object.freeze({}),
  visitor: true,
});

/** The actor of a request nobody signed in to. */
export function visitorActor(): Actor {
  return VISITOR;
}

export function isVisitor(actor: Actor): boolean {
  return actor.visitor === true;
}

/** The user id a write records as its author: none for a visitor or the engine itself. */
export function authorId(actor: Actor): number | null {
  return actor.visitor || actor.system ? null : actor.userId;
}
