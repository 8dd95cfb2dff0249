import type { Actor } from '../ground/actor';
import { ADMIN_ROLE } from '../ground/admin-role';

/**
 * The engine acting for whoever runs it: the CLI, seeding, backups and the first administrator's
 * bootstrap. An administrator (identity's admin-only operations let it), with no account of its
 * own (user id 0, like a visitor: nothing is written as by it, and no self-protection rule about
 * "oneself" ever matches it). Doors never hand it out: requests act as their signed-in user.
 */
export const SYSTEM_ACTOR: Actor = Object.freeze({
  userId: 0,
  email: '',
  name: 'Ninefold',
  roles: Object.freeze([ADMIN_ROLE]),
  fields: Object.freeze({}),
});

/**
 * The engine taking automatic transitions when their time comes (the scheduler). It holds no
 * role, so no grant applies to it: ops give it exactly the transitions the spec marks `auto`.
 * Its writes have no author (`system`); the history says "automatically".
 */
export const SCHEDULER_ACTOR: Actor = Object.freeze({
  userId: 0,
  email: '',
  name: 'Ninefold scheduler',
  roles: Object.freeze([]),
  fields: Object.freeze({}),
  system: true,
});
