import { beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../log';
import { openEngine } from '../open-engine';
import { countRows, ninefoldError, openSyncedQuickly, seedEmptyPglite } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createIdentity } from './identity';
import { SETUP_CODE_ALONE, SETUP_CODE_LINE, setupCodeAlone } from './setup-code';
import type { Identity } from './types';
import { withStore } from '@testing/engine/engine';
import { SYSTEM_ACTOR } from './system-actor';

const model = buildModel({ name: 'setup', roles: { agent: { label: 'Agent' } } });
const PASSWORD = 'correct horse battery staple';
const PER_ACCOUNT = 3;
const admin = { email: 'Root@Example.com', name: 'Root', password: PASSWORD };

forEachDatabase('identity: setup code', (database) => {
  let store: Store;
  let identity: Identity;
  let code: string;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles), { signInAttemptsPerAccount: PER_ACCOUNT, signInAttemptsPerIp: 100 });
  });

  describe('before the first administrator', () => {
    it('makes a code of two groups of four, stored only as its hash', async () => {
      code = await identity.issueSetupCode();
      expect(code).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
      const rows = (await store.db.selectFrom('nf_setup_code').selectAll().execute()) as { code_hash: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(code.replace('-', ''));
    });

    it('refuses a wrong or missing code on the setupCode field, creates nothing and logs no code', async () => {
      for (const [i, wrong] of ['', 'AAAA-AAAA', `${code}X`, 'x'.repeat(1000)].entries()) {
        const { result: error, lines } = await captureLog(() =>
          ninefoldError(identity.createFirstAdmin(admin, wrong, { ip: `203.0.113.${i + 10}` })),
        );
        expect(error.code).toBe('VALIDATION_FAILED');
        expect(error.fieldErrors.map((e) => e.field)).toEqual(['setupCode']);
        expect(lines.map((l) => l.msg)).toEqual(['setup refused']);
        expect(JSON.stringify(lines)).not.toContain(code);
      }
      expect(await identity.hasUsers()).toBe(false);
      expect(await countRows(store.db, 'nf_user')).toBe(0);
    });

    it('throttles wrong codes per address: even the right code waits there, other addresses do not', async () => {
      const ip = '203.0.113.50';
      for (let i = 0; i < PER_ACCOUNT; i++)
        expect((await ninefoldError(identity.createFirstAdmin(admin, 'WRNG-CODE', { ip }))).code).toBe('VALIDATION_FAILED');
      const limited = await ninefoldError(identity.createFirstAdmin(admin, code, { ip }));
      expect(limited.code).toBe('RATE_LIMITED');
      expect(limited.retryAfterSeconds).toBeGreaterThan(0);
      expect(await identity.hasUsers()).toBe(false);
      expect((await ninefoldError(identity.createFirstAdmin(admin, 'WRNG-CODE', { ip: '203.0.113.51' }))).code).toBe('VALIDATION_FAILED');
    });

    it('compares at most the limit of 60 wrong codes sent at once from one address, across servers', async () => {
      const limit = 10;
      // Separate pools on PostgreSQL, as separate servers would have; PGlite has one connection.
      const stores = database.kind === 'postgres' ? await Promise.all([1, 2, 3].map(() => database.open())) : [store, store, store];
      const servers = stores.map((s) =>
        createIdentity(s.db, Object.keys(model.roles), { signInAttemptsPerAccount: limit, signInAttemptsPerIp: 100 }),
      );
      const ip = '203.0.113.60';
      const codes = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          servers[i % 3]!.createFirstAdmin(admin, `WRNG-${String(i).padStart(4, '2')}`, { ip }).then(
            () => 'ok',
            (e: { code: string }) => e.code,
          ),
        ),
      );
      expect(codes.filter((c) => c === 'VALIDATION_FAILED')).toHaveLength(limit);
      expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(60 - limit);
      expect((await ninefoldError(servers[0]!.createFirstAdmin(admin, code, { ip }))).code).toBe('RATE_LIMITED');
      expect(await identity.hasUsers()).toBe(false);
      // Their pools give PostgreSQL's connections back to the suites running beside this one.
      if (database.kind === 'postgres') await Promise.all(stores.map((s) => s.close()));
    });

    it('accepts the code of any server (one per start), whatever the case and spacing, once', async () => {
      const other = await identity.issueSetupCode();
      expect(other).not.toBe(code);
      expect(await countRows(store.db, 'nf_setup_code')).toBe(2);
      const typed = ` ${other.replace('-', ' ').toLowerCase()} `;
      const { result: account, lines } = await captureLog(() => identity.createFirstAdmin(admin, typed, { ip: '203.0.113.2' }));
      expect(account).toMatchObject({ email: 'root@example.com', name: 'Root', roles: ['admin'] });
      expect(JSON.stringify(lines)).not.toContain(other);
      expect(JSON.stringify(lines)).not.toContain(PASSWORD);
      // Every code is spent with the first user: the other server's too.
      expect(await countRows(store.db, 'nf_setup_code')).toBe(0);
    });
  });

  describe('after the first administrator', () => {
    it('refuses the same code again, any code, and making new ones', async () => {
      for (const again of [code, 'AAAA-AAAA']) {
        expect(
          (await ninefoldError(identity.createFirstAdmin({ ...admin, email: 'second@example.com' }, again, { ip: '203.0.113.3' }))).code,
        ).toBe('FORBIDDEN');
      }
      expect((await ninefoldError(identity.issueSetupCode())).code).toBe('FORBIDDEN');
      expect(await countRows(store.db, 'nf_user')).toBe(1);
    });
  });

  describe('when the server opens the engine', () => {
    /** Another database with no table yet; on PGlite copied initialised, since initdb takes seconds. */
    async function emptyDatabase() {
      const options = await database.freshOptions();
      if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
      return options;
    }

    it('logs one code line while there are no users; a user made otherwise (CLI) spends it; then no line', async () => {
      const options = await emptyDatabase();
      const settings = { root: process.cwd(), specPath: 'unused', ...options };
      const first = await captureLog(async () => withStore(await openEngine(settings, { model, announceSetupCode: true })));
      const engine = first.result;
      try {
        const codeLines = first.lines.filter((l) => SETUP_CODE_LINE.test(l.msg));
        expect(codeLines).toHaveLength(1);
        expect(codeLines[0]!.level).toBe('warn');
        // The same code again, alone on its line between blank ones, for the person at the terminal.
        const code = /setup code (\S+) /.exec(codeLines[0]!.msg)![1]!;
        expect(first.printed).toEqual([`\n${setupCodeAlone(code)}\n`]);
        expect(first.printed[0]!.split('\n').filter((line) => SETUP_CODE_ALONE.test(line))).toEqual([`    Setup code: ${code}`]);
        expect(await countRows(engine.store.db, 'nf_setup_code')).toBe(1);
        await engine.identity.createUser(SYSTEM_ACTOR, { email: 'cli@example.com', password: PASSWORD, roles: ['admin'] });
        expect(await countRows(engine.store.db, 'nf_setup_code')).toBe(0);
      } finally {
        await engine.close();
      }
      const again = await captureLog(() => openEngine(settings, { model, announceSetupCode: true }));
      await again.result.close();
      expect(again.lines.filter((l) => SETUP_CODE_LINE.test(l.msg))).toEqual([]);
      expect(again.printed).toEqual([]);
    });

    it('logs nothing for the CLI and tests (no announceSetupCode)', async () => {
      const options = await emptyDatabase();
      const opened = await captureLog(async () =>
        withStore(await openEngine({ root: process.cwd(), specPath: 'unused', ...options }, { model })),
      );
      try {
        expect(opened.lines.filter((l) => SETUP_CODE_LINE.test(l.msg))).toEqual([]);
        expect(await countRows(opened.result.store.db, 'nf_setup_code')).toBe(0);
      } finally {
        await opened.result.close();
      }
    });
  });
});
