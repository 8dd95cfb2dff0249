import type { Faker } from '@faker-js/faker';
import { isAdmin } from '../access/policy';
import { hashPassword } from '../identity/passwords';
import { userFieldDefaults } from '../identity/user-fields';
import type { AppModel } from '../spec/model';
import { SETUP_CODE_TABLE, USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import { owningRoles, specRoles } from './user-pools';

export const DEMO_PASSWORD = 'demo-password';
/** The accounts listed to the user: the first few of each role (the rest only fill the data). */
const LISTED_PER_ROLE = 5;
/** Records per user of an owning role (customers): enough owners that no one holds thousands. */
const RECORDS_PER_OWNER = 50;
const MAX_OWNERS = 2000;

export interface DemoUsers {
  /** Enabled users by role (demo users and any others the database has). */
  readonly byRole: ReadonlyMap<string, readonly number[]>;
  readonly rolesOf: ReadonlyMap<number, readonly string[]>;
  /** The demo accounts made by this run that are worth telling about. */
  readonly created: readonly { email: string; roles: readonly string[] }[];
}

export function demoEmail(role: string, n: number): string {
  return `${role}${n}@demo.ninefold.test`;
}

/**
 * How many demo users a role gets: one admin, five of most roles, more owners as the data grows,
 * and, for a unique user field (a practitioner's own account), one more for each record that
 * names one of the role's users beyond those the role has.
 */
function wantedUsers(role: string, owning: ReadonlySet<string>, count: number, named: number, existing: number): number {
  const usual = isAdmin(role)
    ? 1
    : owning.has(role)
      ? Math.min(MAX_OWNERS, Math.max(LISTED_PER_ROLE, Math.ceil(count / RECORDS_PER_OWNER)))
      : LISTED_PER_ROLE;
  return named > 0 ? Math.max(usual, Math.min(MAX_OWNERS, existing + named)) : usual;
}

/**
 * Makes the demo accounts that are missing: `<role><n>@demo.ninefold.test`, password
 * DEMO_PASSWORD, hashed once (hashing is slow on purpose and they share the password), inserted
 * in a few statements with the spec's user-field defaults, in the seed's transaction. Like any
 * first user, they spend the setup codes. `named`: per role, the records of unique user fields
 * that will name one of its users.
 */
export async function ensureDemoUsers(
  model: AppModel,
  db: DynamicDatabase,
  faker: Faker,
  count: number,
  named: ReadonlyMap<string, number>,
): Promise<DemoUsers> {
  const owning = owningRoles(model);
  const accounts = await db.selectFrom(USER_TABLE).select(['email', 'roles']).execute();
  const existing = new Set(accounts.map((u) => String(u.email)));
  const missing: { email: string; name: string; roles: string[] }[] = [];
  for (const role of specRoles(model)) {
    const holding = accounts.filter((u) => (u.roles as string[]).includes(role)).length;
    for (let n = 1; n <= wantedUsers(role, owning, count, named.get(role) ?? 0, holding); n++) {
      const email = demoEmail(role, n);
      if (!existing.has(email)) missing.push({ email, name: faker.person.fullName(), roles: [role] });
    }
  }
  if (missing.length > 0) {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const defaults = userFieldDefaults(model);
    for (let i = 0; i < missing.length; i += 1000) {
      const batch = missing
        .slice(i, i + 1000)
        .map((u) => ({ ...defaults, email: u.email, name: u.name, roles: u.roles, password_hash: passwordHash }));
      await db.insertInto(USER_TABLE).values(batch).execute();
    }
    await db.deleteFrom(SETUP_CODE_TABLE).execute();
  }
  const byRole = new Map<string, number[]>();
  const rolesOf = new Map<number, readonly string[]>();
  const users = await db.selectFrom(USER_TABLE).select(['id', 'roles']).where('disabled_at', 'is', null).orderBy('id').execute();
  for (const user of users) {
    const id = Number(user.id);
    const roles = user.roles as string[];
    rolesOf.set(id, roles);
    for (const role of roles) {
      const ids = byRole.get(role) ?? [];
      ids.push(id);
      byRole.set(role, ids);
    }
  }
  const listed = missing.filter((u) => Number(/(\d+)@/.exec(u.email)?.[1]) <= LISTED_PER_ROLE);
  return { byRole, rolesOf, created: listed.map((u) => ({ email: u.email, roles: u.roles })) };
}
