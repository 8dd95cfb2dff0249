/**
 * Shared pieces of the engine's integration tests: the helpdesk model plus one entity with what
 * the helpdesk lacks (and a limit too high for the matrix to reach), users made through identity, catching the NinefoldError an operation
 * rejects with, and a quicker fresh PGlite (a copied template instead of initdb).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { createIdentity } from '@/engine/identity/identity';
import { buildModel } from '@/engine/spec/build';
import type { AppModel } from '@/engine/spec/model';
import type { AppSpec } from '@/engine/spec/types';
import { openStore } from '@/engine/store/open-store';
import type { TestDatabase } from '@testing/engine/store';
import type { DynamicDatabase, Store } from '@/engine/store/types';
import type { Actor } from '@/engine/ground/actor';
import { ADMIN_ROLE } from '@/engine/access/policy';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/**
 * The helpdesk plus `contact`: the field types the helpdesk lacks (email, url, integer, decimal,
 * date), a reference that restricts deletes (the default onDelete), no permissions (open to every
 * signed-in user) and nothing searchable.
 */
export const testSpec: AppSpec = {
  ...helpdesk,
  entities: {
    ...helpdesk.entities,
    contact: {
      label: 'Contact',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 80 },
        employer: { type: 'reference', to: 'organization' },
        email: { type: 'email', unique: true },
        website: { type: 'url' },
        visits: { type: 'integer', min: 0, max: 1000 },
        balance: { type: 'decimal', precision: 8, scale: 2 },
        birthday: { type: 'date' },
        active: { type: 'boolean', default: true },
        notes: { type: 'text' },
      },
    },
  },
  // The permission matrix creates many open tickets for one requester; limits have their own tests.
  constants: { ...helpdesk.constants, maxOpenTicketsPerCustomer: { ...helpdesk.constants!.maxOpenTicketsPerCustomer, value: 100_000 } },
};

export const testModel: AppModel = buildModel(testSpec);

let userCounter = 0;

/** A new user with these roles, as the actor ops expect. */
export async function createActor(db: DynamicDatabase, roles: readonly string[], name?: string): Promise<Actor> {
  // The helpdesk's roles, and whatever roles another spec's test gives.
  const identity = createIdentity(db, [...new Set([ADMIN_ROLE, 'agent', 'customer', ...roles])]);
  userCounter += 1;
  const label = name ?? `${roles.join('-') || 'nobody'} ${userCounter}`;
  const email = `${label.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${process.pid}.${userCounter}@example.com`;
  const account = await identity.createUser(SYSTEM_ACTOR, { email, password: 'correct horse battery', name: label, roles });
  return { userId: account.id, email: account.email, name: account.name, roles: account.roles };
}

/** The NinefoldError the promise rejects with; fails the test when it resolves or throws anything else. */
export async function ninefoldError(promise: Promise<unknown>): Promise<NinefoldError> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (error) {
    if (error instanceof NinefoldError) return error;
    throw new Error(`expected a NinefoldError, got ${String(error)}`, { cause: error });
  }
  expect.fail(`expected a NinefoldError, but it resolved with ${JSON.stringify(outcome)?.slice(0, 300)}`);
}

/** Runs a write that must be refused with `code`, and checks that what `snapshot` reads is the same after it. */
export async function expectRefused(snapshot: () => Promise<unknown>, code: string, write: () => Promise<unknown>): Promise<NinefoldError> {
  const before = await snapshot();
  const error = await ninefoldError(write());
  expect(error.code, `${error.message} ${JSON.stringify(error.fieldErrors)}`).toBe(code);
  expect(await snapshot()).toEqual(before);
  return error;
}

/** Field errors as `field:code`, sorted, for compact assertions. */
export function fieldCodes(error: NinefoldError): string[] {
  return error.fieldErrors.map((e) => `${e.field}:${e.code}`).sort();
}

export async function countRows(db: DynamicDatabase, table: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------- a faster fresh PGlite

/** The installed PGlite's version (its package.json is not among its exports, so read from the resolved entry's package). */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Fills an empty PGlite data directory with a copy of a freshly initialised one, kept in the
 * temporary directory per PGlite version: copying takes a tenth of a second where initdb takes seconds.
 * The copy is as empty as a new database (the template was opened and closed, nothing else).
 */
export async function seedEmptyPglite(dataDir: string): Promise<void> {
  const template = path.join(os.tmpdir(), `nf-pglite-template-${pgliteVersion()}`);
  if (!existsSync(path.join(template, 'PG_VERSION'))) {
    const building = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const store = await openStore({ dataDir: building });
    await store.close();
    try {
      await fs.rename(building, template);
    } catch {
      // Another process made it first (or a partial one is in the way): use theirs, or none.
      await fs.rm(building, { recursive: true, force: true });
      if (!existsSync(path.join(template, 'PG_VERSION'))) return;
    }
  }
  await copyDirectory(template, dataDir);
}

/**
 * The system's `cp`, sparse: PostgreSQL's zero-filled WAL segment is most of the template, and
 * Node's fs.cp writes every byte of it, file by file, from JavaScript (about ten times slower
 * here). fs.cp where that `cp` is missing or lacks the option.
 */
async function copyDirectory(from: string, to: string): Promise<void> {
  try {
    await promisify(execFile)('cp', ['-R', '--sparse=always', `${from}/.`, to]);
  } catch {
    await fs.cp(from, to, { recursive: true, force: true });
  }
}

/** `database.openSynced(model)`, on a PGlite seeded from the template. */
export async function openSyncedQuickly(database: TestDatabase, model: AppModel): Promise<Store> {
  if (database.kind === 'pglite') await seedEmptyPglite((await database.options()).dataDir);
  return database.openSynced(model);
}
