import { isAdmin } from '../access/policy';
import { NinefoldError } from '../errors/ninefold-error';
import { logLine } from '../log';
import type { Actor } from '../ground/actor';

/**
 * Accounts and invitations are the administrators' (/admin/users, the CLI as SYSTEM_ACTOR). The
 * engine refuses everyone else itself, as saved views refuse what their list does not allow:
 * a door that forgot to check would still change nothing.
 */
export function refuseUnlessAdministrator(actor: Actor, action: string): void {
  if (isAdmin(actor)) return;
  logLine('warn', 'access refused', { code: 'FORBIDDEN', actor: actor.userId, action });
  throw new NinefoldError('FORBIDDEN', 'Only administrators may manage accounts and invitations.');
}

/** The account acting, for the log and the rules about oneself: none for the system actor (or a visitor). */
export function actingAccount(actor: Actor): number | null {
  return actor.userId > 0 ? actor.userId : null;
}
