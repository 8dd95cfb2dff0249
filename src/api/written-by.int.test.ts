import { beforeAll, describe, expect, it } from 'vitest';
import { ledgerSpec } from '@testing/engine/call-door';
import { importCsv } from '@/engine/csv/import-csv';
import type { TestEngine } from '@testing/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { ninefoldError } from '@testing/engine/ops';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { submitCreate, submitDelete, submitUpdate } from '@/server/record-actions';
import { initialMessageFormState, initialRecordFormState, VERSION_INPUT } from '@/ui/forms/state';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/*
 * `writtenBy: 'calls'` through every door: the record API answers 405 to writes of an entity only
 * calls write and refuses a field only calls write like a read-only one; pages' server actions
 * and imports refuse the same; the spec's calls write both, within the roles' grants.
 */

const model = buildModel(ledgerSpec);
const PASSWORD = 'correct horse battery';
const TABLES = ['account', 'payment'];

const asActor = (user: UserAccount): Actor => ({ userId: user.id, email: user.email, name: user.name, roles: user.roles });
const form = (values: Record<string, string>, version?: number) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  if (version !== undefined) data.append(VERSION_INPUT, String(version));
  return data;
};

forEachDatabase('writtenBy: calls', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let clerk: UserAccount;
  let viewer: UserAccount;
  let clerkToken: string;
  let viewerToken: string;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    [clerk, viewer] = await Promise.all([
      engine.identity.createUser(SYSTEM_ACTOR, { email: 'clerk@example.com', password: PASSWORD, roles: ['clerk'] }),
      engine.identity.createUser(SYSTEM_ACTOR, { email: 'viewer@example.com', password: PASSWORD, roles: ['viewer'] }),
    ]);
    clerkToken = (await engine.identity.createApiToken(clerk.id, { name: 'tests' })).token;
    viewerToken = (await engine.identity.createApiToken(viewer.id, { name: 'tests' })).token;
  });

  const newAccount = async (name = 'Acme') =>
    (await api.call('POST', '/accounts', { token: clerkToken, body: { name } })).body as RecordData;
  const pay = (account: number, amount: number, token = clerkToken) =>
    api.call('POST', `/accounts/${account}/pay`, { token, body: { amount, memo: `Paid ${amount}` } });
  const unchangedBy = async (write: () => Promise<void>) => {
    const before = await snapshot(engine.store.db, TABLES);
    await write();
    expect(await snapshot(engine.store.db, TABLES)).toEqual(before);
  };

  describe('the calls write what only calls write', () => {
    it('pay creates a payment and adds it to the balance, as the caller', async () => {
      const account = await newAccount();
      expect(account.balance).toBe(0);
      const answer = await pay(account.id, 40);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({ account: account.id, amount: 40, memo: 'Paid 40', state: 'recorded', createdBy: clerk.id });
      await pay(account.id, 2);
      const { body } = await api.call('GET', `/accounts/${account.id}`, { token: clerkToken });
      expect(body).toMatchObject({ balance: 42, version: 3, updatedBy: clerk.id });
    });

    it('amend changes and void deletes a payment', async () => {
      const account = await newAccount();
      const payment = (await pay(account.id, 5)).body as RecordData;
      const amended = await api.call('POST', `/payments/${payment.id}/amend`, { token: clerkToken, body: { memo: 'Corrected' } });
      expect(amended.status, amended.text).toBe(200);
      expect(amended.body).toMatchObject({ id: payment.id, memo: 'Corrected', version: 2 });
      expect((await api.call('POST', `/payments/${payment.id}/void`, { token: clerkToken })).status).toBe(204);
      expectProblem(await api.call('GET', `/payments/${payment.id}`, { token: clerkToken }), 404, 'NOT_FOUND');
    });

    it("still checks the grants: a caller whose roles may not create payments is refused, and the call's changes are undone", async () => {
      const account = await newAccount();
      await unchangedBy(async () => {
        const answer = await pay(account.id, 7, viewerToken);
        expectProblem(answer, 403, 'FORBIDDEN');
        expect(answer.body.detail).toBe('You are not allowed to create payments.');
      });
    });

    it('keeps a read-only field read-only inside calls too', async () => {
      const account = await newAccount();
      const payment = (await pay(account.id, 5)).body as RecordData;
      await unchangedBy(async () => {
        const answer = await api.call('POST', `/payments/${payment.id}/stamp`, { token: clerkToken });
        expectProblem(answer, 403, 'FORBIDDEN_FIELD');
        expect(answer.body.detail).toBe('Refunded at is read-only.');
      });
    });

    it('tells a call what it may write there, and other doors what they may not', async () => {
      expect((await api.call('GET', '/ledger/access', { token: clerkToken })).body).toEqual({
        paymentCreate: true,
        accountWritable: 'name,balance,note',
      });
      // The viewer's writableFields (note) are about forms and the API; the balance is the call's to set.
      expect((await api.call('GET', '/ledger/access', { token: viewerToken })).body).toEqual({
        paymentCreate: false,
        accountWritable: 'balance,note',
      });
      const payments = engine.ops.access(asActor(clerk), 'payment');
      expect(payments.actions).toEqual({ list: true, read: true, create: false, update: false, delete: false });
      expect(payments.writable).toEqual({ create: [], update: [] });
      expect(payments.transitions).toEqual({ refund: true });
      expect(engine.ops.access(asActor(clerk), 'account').writable).toEqual({ create: ['name', 'note'], update: ['name', 'note'] });
    });
  });

  describe('the record API', () => {
    it('answers 405 with Allow to a create, change or delete of a payment, changing nothing', async () => {
      const account = await newAccount();
      const payment = (await pay(account.id, 9)).body as RecordData;
      await unchangedBy(async () => {
        for (const [method, path, body] of [
          ['POST', '/payments', { account: account.id, amount: 1, memo: 'Sneaky' }],
          ['PATCH', `/payments/${payment.id}`, { memo: 'Sneaky', version: payment.version }],
          ['PUT', `/payments/${payment.id}`, { memo: 'Sneaky', version: payment.version }],
          ['DELETE', `/payments/${payment.id}`, undefined],
        ] as const) {
          const answer = await api.call(method, path, { token: clerkToken, body });
          expectProblem(answer, 405, 'METHOD_NOT_ALLOWED');
          expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
          expect(answer.body.title).toBe('Method not allowed');
        }
      });
      // Reads are as for any entity.
      const read = await api.call('GET', `/payments/${payment.id}`, { token: clerkToken });
      expect(read.body).toMatchObject({ id: payment.id, amount: 9 });
      expect((await api.call('GET', '/payments', { token: viewerToken })).body.items.length).toBeGreaterThan(0);
    });

    it('takes a granted transition of a payment, whose effects write it', async () => {
      const account = await newAccount();
      const payment = (await pay(account.id, 3)).body as RecordData;
      const answer = await api.call('POST', `/payments/${payment.id}/transitions/refund`, {
        token: clerkToken,
        body: { version: payment.version },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({ state: 'refunded', version: 2 });
      expect(typeof answer.body.refundedAt).toBe('string');
    });

    it('refuses field values given with a transition of a payment', async () => {
      const account = await newAccount();
      const payment = (await pay(account.id, 3)).body as RecordData;
      await unchangedBy(async () => {
        const answer = await api.call('POST', `/payments/${payment.id}/transitions/refund`, {
          token: clerkToken,
          body: { version: payment.version, input: { memo: 'Changed on the way' } },
        });
        expectProblem(answer, 403, 'FORBIDDEN_FIELD');
        expect(answer.body.detail).toBe("Memo is written only by the application's calls and workflow.");
      });
    });

    it('refuses the balance in a create or change of an account, like a read-only field', async () => {
      const account = await newAccount();
      await unchangedBy(async () => {
        const created = await api.call('POST', '/accounts', { token: clerkToken, body: { name: 'Rich', balance: 1000 } });
        expectProblem(created, 403, 'FORBIDDEN_FIELD');
        expect(created.body.errors).toEqual([
          { pointer: '/balance', code: 'forbidden_field', detail: "Balance is written only by the application's calls and workflow." },
        ]);
        const changed = await api.call('PATCH', `/accounts/${account.id}`, {
          token: clerkToken,
          body: { balance: 1000, version: account.version },
        });
        expectProblem(changed, 403, 'FORBIDDEN_FIELD');
      });
      // The rest of the account is edited as usual.
      const renamed = await api.call('PATCH', `/accounts/${account.id}`, {
        token: clerkToken,
        body: { note: 'Key account', version: account.version },
      });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toMatchObject({ note: 'Key account', balance: 0 });
    });
  });

  describe('ops, as pages and imports call it', () => {
    it('refuses a create, change or delete of a payment with METHOD_NOT_ALLOWED, whatever the grants', async () => {
      const account = await newAccount();
      const payment = (await pay(account.id, 4)).body as RecordData;
      const actor = asActor(clerk);
      await unchangedBy(async () => {
        for (const write of [
          () => engine.ops.create(actor, 'payment', { account: account.id, amount: 1, memo: 'Sneaky' }),
          () => engine.ops.createMany(actor, 'payment', [{ account: account.id, amount: 1, memo: 'Sneaky' }]),
          () => engine.ops.update(actor, 'payment', payment.id, { memo: 'Sneaky' }, payment.version),
          () => engine.ops.delete(actor, 'payment', payment.id),
        ]) {
          const error = await ninefoldError(write());
          expect(error.code).toBe('METHOD_NOT_ALLOWED');
          expect(error.message).toMatch(
            /^Payments are written only by the application's calls and workflow: they cannot be (created|changed|deleted) directly\.$/,
          );
        }
      });
      const view = await engine.ops.get(actor, 'payment', payment.id);
      expect(view.can).toEqual({ update: false, delete: false });
      expect(view.transitions.map((t) => t.name)).toEqual(['refund']);
    });

    it("refuses the pages' server actions, changing nothing", async () => {
      const account = await newAccount();
      const payment = (await pay(account.id, 4)).body as RecordData;
      const actor = asActor(clerk);
      await unchangedBy(async () => {
        const created = await submitCreate(
          engine,
          actor,
          'payment',
          initialRecordFormState({}),
          form({ account: String(account.id), amount: '1', memo: 'Sneaky' }),
          'UTC',
        );
        expect(created).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
        const updated = await submitUpdate(
          engine,
          actor,
          'payment',
          payment.id,
          initialRecordFormState({}),
          form({ memo: 'Sneaky' }, payment.version),
          'UTC',
        );
        expect(updated).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
        const deleted = await submitDelete(engine, actor, 'payment', payment.id, initialMessageFormState, form({}, payment.version));
        expect(deleted).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
        const balance = await submitUpdate(
          engine,
          actor,
          'account',
          account.id,
          initialRecordFormState({}),
          form({ balance: '1000' }, account.version),
          'UTC',
        );
        expect(balance).toMatchObject({ code: 'FORBIDDEN_FIELD' });
      });
    });

    it('refuses a CSV import of payments before reading the file, and the balance column of accounts', async () => {
      const account = await newAccount();
      const actor = asActor(clerk);
      await unchangedBy(async () => {
        const payments = new TextEncoder().encode(`Account,Amount,Memo\n${account.id},5,Imported\n`);
        const error = await ninefoldError(importCsv(engine.ops, model, actor, 'payment', payments, { maxBytes: 1_000_000 }));
        expect(error.code).toBe('METHOD_NOT_ALLOWED');
        expect(error.message).toBe("Payments are written only by the application's calls and workflow: they cannot be imported directly.");
        const accounts = new TextEncoder().encode('Name,Balance\nImported,1000\n');
        const refused = await ninefoldError(importCsv(engine.ops, model, actor, 'account', accounts, { maxBytes: 1_000_000 }));
        expect(refused.code).toBe('VALIDATION_FAILED');
        expect(refused.fieldErrors.map((e) => e.field)).toContain('Balance');
      });
    });
  });
});
