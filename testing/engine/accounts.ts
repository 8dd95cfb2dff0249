import type { Actor } from '@/engine/ground/actor';
import type { UserAccount } from '@/engine/identity/types';

/** The actor of an account, as a session would give it (without user fields): for tests that act as an administrator they created. */
export function actorOfAccount(account: UserAccount): Actor {
  return { userId: account.id, email: account.email, name: account.name, roles: account.roles };
}
