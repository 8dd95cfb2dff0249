import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { seedEmptyPglite } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { LOCK_FILE, processStat } from './data-dir-lock';
import { databaseKindFor, openStore } from './open-store';
import { PRESTARTED, prestartEmbeddedDatabase } from './pglite/prestart.mjs';
import { createTestDatabase, forEachDatabase, type TestDatabase } from '@testing/engine/store';
import type { Store, StoreOptions } from './types';

const model = buildModel(helpdesk);

function errorOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Record<string, unknown>,
  );
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid a lock file names (its first line; the second is the holder's start time on Linux). */
const lockPid = (file: string) => fs.readFileSync(file, 'utf8').split('\n')[0];

/**
 * Options of another database that exists already: on PGlite a copy of an initialised one, since
 * initdb takes seconds and only the first open of an empty directory (tested elsewhere) needs it.
 */
async function existingOptions(database: TestDatabase): Promise<StoreOptions> {
  const options = await database.freshOptions();
  if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
  return options;
}

describe('databaseKindFor', () => {
  it('is postgres with a URL and pglite without', () => {
    expect(databaseKindFor({ databaseUrl: 'postgres://x/y' })).toBe('postgres');
    expect(databaseKindFor({})).toBe('pglite');
  });
});

forEachDatabase('store', (database) => {
  let store: Store;
  beforeAll(async () => {
    if (database.kind === 'pglite') await seedEmptyPglite((await database.options()).dataDir);
    store = await database.openSynced(model);
  });

  it('says which database it is', () => {
    expect(store.kind).toBe(database.kind);
  });

  it('keeps the embedded database to a 16MB buffer cache, with durability as PGlite sets it', async () => {
    if (store.kind !== 'pglite') return;
    const setting = async (name: string) => {
      const { rows } = await sql<{ setting: string }>`SELECT current_setting(${name}) AS setting`.execute(store.db);
      return rows[0]!.setting;
    };
    expect(await setting('shared_buffers')).toBe('16MB');
    expect(await setting('synchronous_commit')).toBe('on');
    expect(await setting('full_page_writes')).toBe('on');
  });

  it('returns the same JS values on both databases', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select 9007199254740991::int8 as big, 3::int4 as int, 12.5::numeric(12,2) as money,
             '2024-02-29'::date as day, '2024-02-29T10:20:30Z'::timestamptz as moment,
             true as yes, array['a', 'b']::text[] as roles, array[1, 2]::int8[] as ids,
             '{"a": [1]}'::jsonb as doc, null::text as nothing, count(*) as n
      from (values (1), (2)) as v(x)`.execute(store.db);
    expect(rows[0]).toEqual({
      big: 9007199254740991,
      int: 3,
      money: '12.50',
      day: '2024-02-29',
      moment: new Date('2024-02-29T10:20:30Z'),
      yes: true,
      roles: ['a', 'b'],
      ids: [1, 2],
      doc: { a: [1] },
      nothing: null,
      n: 2,
    });
  });

  it('takes Date, array, boolean and JSON-text parameters the same way', async () => {
    const moment = new Date('2025-06-01T12:00:00.000Z');
    const row = await store.db
      .insertInto('nf_audit')
      .values({ at: moment, entity: 'ticket', record_id: 1, action: 'create', changes: JSON.stringify({ subject: ['', 'x'] }) })
      .returning(['id', 'at', 'changes'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ id: expect.any(Number), at: moment, changes: { subject: ['', 'x'] } });
    const user = await store.db
      .insertInto('nf_user')
      .values({ email: 'types@example.com', password_hash: 'x', roles: ['admin', 'agent'] })
      .returning(['roles', 'name'])
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ roles: ['admin', 'agent'], name: '' });
  });

  it('counts every statement sent', async () => {
    const before = store.statementCount();
    await store.db.selectFrom('ticket').select('id').execute();
    await store.db.transaction().execute(async (trx) => {
      await trx.selectFrom('ticket').select('id').execute();
    });
    // select; begin, select, commit
    expect(store.statementCount() - before).toBe(4);
  });

  it('keeps the Postgres error fields: unique violation 23505, foreign key violation 23503', async () => {
    await store.db.insertInto('organization').values({ name: 'Unique Ltd', tier: 'standard' }).execute();
    const duplicate = await errorOf(store.db.insertInto('organization').values({ name: 'Unique Ltd', tier: 'standard' }).execute());
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).toMatchObject({
      code: '23505',
      constraint: 'organization_name_key',
      table: 'organization',
      detail: 'Key (name)=(Unique Ltd) already exists.',
    });
    expect(duplicate.message).toBe('duplicate key value violates unique constraint "organization_name_key"');

    const dangling = await errorOf(store.db.insertInto('comment').values({ ticket: 999_999, body: 'x' }).execute());
    expect(dangling).toMatchObject({ code: '23503', constraint: 'comment_ticket_fkey', table: 'comment' });

    const missing = await errorOf(store.db.insertInto('organization').values({ name: null, tier: 'standard' }).execute());
    expect(missing).toMatchObject({ code: '23502', column: 'name', table: 'organization' });
  });

  it('rolls back a transaction that throws', async () => {
    const failure = await errorOf(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('organization').values({ name: 'Rolled Back Inc', tier: 'standard' }).execute();
        throw new Error('boom');
      }),
    );
    expect(failure.message).toBe('boom');
    const rows = await store.db.selectFrom('organization').select('id').where('name', '=', 'Rolled Back Inc').execute();
    expect(rows).toEqual([]);
    // The connection is usable afterwards (not left inside an aborted transaction).
    expect(await store.db.selectFrom('organization').select('id').where('name', '=', 'Unique Ltd').execute()).toHaveLength(1);
  });

  it('does not let a query outside a transaction see or slip into it', async () => {
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));

    const transaction = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('organization').values({ name: 'Inside Tx', tier: 'standard' }).execute();
      events.push('inserted');
      inserted();
      await gate;
      await trx.insertInto('organization').values({ name: 'Inside Tx 2', tier: 'standard' }).execute();
      events.push('commit');
    });
    await insertedSignal;
    const outside = store.db
      .selectFrom('organization')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', 'like', 'Inside Tx%')
      .executeTakeFirstOrThrow()
      .then((row) => events.push(`outside saw ${row.n}`));
    await tick(150);
    release();
    await transaction;
    await outside;

    if (database.kind === 'pglite') {
      // One connection: the outside query waits for the whole transaction.
      expect(events).toEqual(['inserted', 'commit', 'outside saw 2']);
    } else {
      // A pool: the outside query runs at once, on another connection, and sees nothing uncommitted.
      expect(events).toEqual(['inserted', 'outside saw 0', 'commit']);
    }
  });

  it('serves many concurrent queries and transactions without mixing them', async () => {
    const work = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? store.db.transaction().execute(async (trx) => {
            await trx
              .insertInto('organization')
              .values({ name: `Concurrent ${i}`, tier: 'standard' })
              .execute();
            if (i % 4 === 0) throw new Error('undo');
          })
        : store.db.selectFrom('organization').select('id').execute(),
    );
    const results = await Promise.allSettled(work);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(5);
    const names = await store.db.selectFrom('organization').select('name').where('name', 'like', 'Concurrent %').orderBy('name').execute();
    expect(names.map((r) => r.name).sort()).toEqual(['Concurrent 10', 'Concurrent 14', 'Concurrent 18', 'Concurrent 2', 'Concurrent 6']);
  });

  it('lets a transaction under way finish before it closes', async () => {
    const options = await existingOptions(database);
    const other = await openStore(options);
    await sql`create table t (x integer)`.execute(other.db);
    let started!: () => void;
    const startedSignal = new Promise<void>((resolve) => (started = resolve));
    const transaction = other.db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ x: 1 }).execute();
      started();
      await tick(200);
      await trx.insertInto('t').values({ x: 2 }).execute();
    });
    await startedSignal;
    await other.close();
    await transaction;
    const reopened = await openStore(options);
    try {
      expect(await reopened.db.selectFrom('t').select('x').orderBy('x').execute()).toEqual([{ x: 1 }, { x: 2 }]);
    } finally {
      await reopened.close();
    }
  });

  it('closes once, however often close() is called', async () => {
    const other = await openStore(await existingOptions(database));
    await Promise.all([other.close(), other.close()]);
    await other.close();
    await expect(other.db.selectFrom('ticket').select('id').execute()).rejects.toThrow();
  });
});

describe('PGlite data directory lock', () => {
  const database = createTestDatabase('pglite');
  let dataDir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dataDir = (await existingOptions(database)).dataDir;
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database.cleanup();
  });

  /** Starts another process that opens the store on `dir` and holds it; resolves with its pid. */
  function holdInAnotherProcess(dir: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/engine/store/fixtures/hold-data-dir.ts', dir], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('ready')) resolve(child);
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`holder exited (${code}): ${output}`)));
    });
  }

  const lockFile = () => path.join(dataDir, LOCK_FILE);

  it('writes our pid in the lock file while open, and removes it on close', async () => {
    const store = await openStore({ dataDir });
    expect(lockPid(lockFile())).toBe(String(process.pid));
    await store.close();
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('refuses a second open in the same process', async () => {
    const store = await openStore({ dataDir });
    try {
      await expect(openStore({ dataDir })).rejects.toThrow(
        `The data directory ${dataDir} is in use by another Ninefold process (pid ${process.pid}).`,
      );
    } finally {
      await store.close();
    }
  });

  it('refuses a directory held by another live process, and takes it over once that process is killed', async () => {
    const holder = await holdInAnotherProcess(dataDir);
    const error = await errorOf(openStore({ dataDir }));
    expect(error.message).toBe(
      `The data directory ${dataDir} is in use by another Ninefold process (pid ${holder.pid}). Stop it first, or use another DATA_DIR.`,
    );

    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    // The killed process could not remove its lock: it is stale now.
    expect(lockPid(lockFile())).toBe(String(holder.pid));
    const store = await openStore({ dataDir });
    try {
      expect(lockPid(lockFile())).toBe(String(process.pid));
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await store.close();
    }
  });

  it('removes its lock file when the process exits without closing the store', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/engine/store/fixtures/hold-data-dir.ts', dataDir, 'exit'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain(`ready ${child.pid}`);
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over the lock of a process killed with -9 that its parent has not reaped yet (a zombie)', async () => {
    // The holder runs in the background of a shell that then becomes `sleep`: a parent that never
    // waits, so the killed holder stays a zombie, as a server killed under a busy supervisor does.
    const parent = spawn(
      'sh',
      ['-c', '"$0" --import tsx src/engine/store/fixtures/hold-data-dir.ts "$1" & exec sleep 120', process.execPath, dataDir],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(parent);
    const holderPid = await new Promise<number>((resolve) => {
      let output = '';
      parent.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /ready (\d+)/.exec(output);
        if (ready) resolve(Number(ready[1]));
      });
    });
    await expect(openStore({ dataDir })).rejects.toThrow(`(pid ${holderPid})`);
    process.kill(holderPid, 'SIGKILL');
    while (processStat(holderPid)?.state !== 'Z') await tick(20);
    // kill(pid, 0) still succeeds on it; the lock must not believe it.
    expect(() => process.kill(holderPid, 0)).not.toThrow();
    const store = await openStore({ dataDir });
    try {
      expect(lockPid(lockFile())).toBe(String(process.pid));
    } finally {
      await store.close();
      parent.kill('SIGKILL');
    }
  });

  it('takes over a lock whose pid now belongs to another process (started at another time), and refuses the holder itself', async () => {
    const other = spawn('sleep', ['120']);
    children.push(other);
    await new Promise((resolve) => other.once('spawn', resolve));
    const stat = processStat(other.pid!);
    expect(stat).not.toBeNull();
    fs.writeFileSync(lockFile(), `${other.pid}\n${stat!.startTime}\n`);
    await expect(openStore({ dataDir })).rejects.toThrow(`(pid ${other.pid})`);
    fs.writeFileSync(lockFile(), `${other.pid}\n${Number(stat!.startTime) - 1}\n`);
    const store = await openStore({ dataDir });
    expect(lockPid(lockFile())).toBe(String(process.pid));
    await store.close();
    other.kill('SIGKILL');
  });

  it('takes over a stale lock file whose pid is dead', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.once('exit', resolve));
    fs.writeFileSync(lockFile(), `${dead.pid}\n`);
    const store = await openStore({ dataDir });
    expect(lockPid(lockFile())).toBe(String(process.pid));
    await store.close();
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('releases the lock when the database cannot be opened', async () => {
    const broken = (await database.freshOptions()).dataDir;
    fs.writeFileSync(path.join(broken, 'PG_VERSION'), 'not a version\n');
    await expect(openStore({ dataDir: broken })).rejects.toThrow();
    expect(fs.existsSync(path.join(broken, LOCK_FILE))).toBe(false);
  });
});

describe('PGlite started before the engine (prestart.mjs)', () => {
  const database = createTestDatabase('pglite');
  const root = process.cwd();
  const registry = () => (globalThis as Record<symbol, Map<string, unknown> | undefined>)[PRESTARTED];
  afterAll(() => database.cleanup());

  /** A data directory that holds a database already (prestart only opens existing ones). */
  async function existingDatabase(): Promise<string> {
    return (await existingOptions(database)).dataDir;
  }

  it('is adopted by openStore, with its lock, and queries go to it', async () => {
    const dataDir = await existingDatabase();
    expect(prestartEmbeddedDatabase({ root, dataDir, env: {} })).toBe(true);
    expect(lockPid(path.join(dataDir, LOCK_FILE))).toBe(String(process.pid));
    const store = await openStore({ dataDir });
    expect(registry()?.has(dataDir)).toBe(false);
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    expect(rows).toEqual([{ one: 1 }]);
    // Adopted, not taken over: a second open in this process is refused as before.
    await expect(openStore({ dataDir })).rejects.toThrow(/in use/);
    expect(lockPid(path.join(dataDir, LOCK_FILE))).toBe(String(process.pid));
    await store.close();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('stops a worker prestarted on another directory when the engine opens its own', async () => {
    const other = await existingDatabase();
    const dataDir = await existingDatabase();
    expect(prestartEmbeddedDatabase({ root, dataDir: other, env: {} })).toBe(true);
    const store = await openStore({ dataDir });
    expect(registry()?.size).toBe(0);
    await store.close();
    // The stopped worker left its lock (this pid): the next open takes it over as stale.
    const again = await openStore({ dataDir: other });
    await again.close();
  });

  it('leaves a new directory, DATABASE_URL and a directory locked by a live process to openStore', async () => {
    const { dataDir: fresh } = await database.freshOptions();
    expect(prestartEmbeddedDatabase({ root, dataDir: fresh, env: {} })).toBe(false);
    const dataDir = await existingDatabase();
    expect(prestartEmbeddedDatabase({ root, dataDir, env: { DATABASE_URL: 'postgres://x/y' } })).toBe(false);
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), `${process.ppid}\n`);
    expect(prestartEmbeddedDatabase({ root, dataDir, env: {} })).toBe(false);
    expect(registry()?.has(dataDir) ?? false).toBe(false);
    fs.rmSync(path.join(dataDir, LOCK_FILE));
  });
});
