import type { Faker } from '@faker-js/faker';
import { ADMIN_ROLE } from '../access/grants';
import type { Identity } from '../identity/types';
import type { AppModel } from '../spec/model';
import { USER_TABLE } from '../store/schema/desired';
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

/** How many demo users a role gets: one admin, five of most roles, more owners as the data grows. */
function wantedUsers(role: string, owning: ReadonlySet<string>, count: number): number {
  if (role === ADMIN_ROLE) return 1;
  if (owning.has(role)) return Math.min(MAX_OWNERS, Math.max(LISTED_PER_ROLE, Math.ceil(count / RECORDS_PER_OWNER)));
  return LISTED_PER_ROLE;
}

/**
 * Makes the demo accounts that are missing: `<role><n>@demo.ninefold.test`, password
 * DEMO_PASSWORD. The first goes through identity (checks, password hash); the others share that
 * hash and are inserted in one statement, since hashing is slow on purpose and they share the
 * password anyway.
 */
export async function ensureDemoUsers(model: AppModel, db: DynamicDatabase, identity: Identity, faker: Faker, count: number): Promise<DemoUsers> {
  const owning = owningRoles(model);
  const existing = new Set((await db.selectFrom(USER_TABLE).select('email').execute()).map((u) => String(u.email)));
  const missing: { email: string; name: string; roles: string[] }[] = [];
  for (const role of specRoles(model)) {
    for (let n = 1; n <= wantedUsers(role, owning, count); n++) {
      const email = demoEmail(role, n);
      if (!existing.has(email)) missing.push({ email, name: faker.person.fullName(), roles: [role] });
    }
  }
  if (missing.length > 0) {
    const [first, ...rest] = missing;
    await identity.createUser({ ...first, password: DEMO_PASSWORD });
    const hash = await db.selectFrom(USER_TABLE).select('password_hash').where('email', '=', first.email).executeTakeFirstOrThrow();
    for (let i = 0; i < rest.length; i += 1000) {
      const batch = rest.slice(i, i + 1000).map((u) => ({ email: u.email, name: u.name, roles: u.roles, password_hash: hash.password_hash }));
      await db.insertInto(USER_TABLE).values(batch).execute();
    }
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
