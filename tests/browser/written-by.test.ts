import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, fetchPage, signInOverApi, type ApiSession } from './api-session';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

/*
 * `writtenBy: 'calls'` on the pages of a served app (tests/browser/specs/ledger.spec.ts): an
 * entity only calls write has no New, Edit, Delete or Import, its form addresses are not found,
 * and a field only calls write is in no form. The server actions' refusals are proven in
 * src/api/written-by.int.test.ts.
 */
describe('pages of what only calls write', () => {
  let server: RunningServer;
  let session: ApiSession;
  let account: number;
  let payment: number;

  beforeAll(async () => {
    server = await startServer('ledger', {
      NINEFOLD_SPEC: 'tests/browser/specs/ledger.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
    });
    session = await signInOverApi(server.url, ADMIN.email, ADMIN.password);
    const created = await callApi<{ id: number }>(server.url, session, 'POST', '/accounts', { name: 'Acme' });
    expect(created.status).toBe(201);
    account = created.body.id;
    const paid = await callApi<{ id: number }>(server.url, session, 'POST', `/accounts/${account}/pay`, {
      amount: 25,
      memo: 'First payment',
    });
    expect(paid.status).toBe(200);
    payment = paid.body.id;
  }, 300_000);
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it('lists payments with no New and no Import, and answers 404 at their form addresses', async () => {
    const list = await fetchPage(server.url, session, '/payments');
    expect(list.status).toBe(200);
    expect(list.text).toContain('First payment');
    expect(list.text).not.toContain('href="/payments/new"');
    expect(list.text).not.toContain('href="/payments/import"');
    for (const path of [
      '/payments/new',
      `/payments/${payment}/edit`,
      `/payments/${payment}/delete`,
      '/payments/import',
      '/payments/import/template.csv',
    ]) {
      expect((await fetchPage(server.url, session, path)).status, path).toBe(404);
    }
    // The accounts, written as usual, keep theirs.
    const accounts = await fetchPage(server.url, session, '/accounts');
    expect(accounts.text).toContain('href="/accounts/new"');
  });

  it('shows a payment with its transition but no Edit or Delete, and no add form under its account', async () => {
    const detail = await fetchPage(server.url, session, `/payments/${payment}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('First payment');
    expect(detail.text).not.toContain(`href="/payments/${payment}/edit"`);
    expect(detail.text).not.toContain(`href="/payments/${payment}/delete"`);
    expect(detail.text).toContain('Refund');
    const parent = await fetchPage(server.url, session, `/accounts/${account}`);
    expect(parent.status).toBe(200);
    expect(parent.text).toContain('First payment');
    expect(parent.text).not.toMatch(/name="amount"/);
  });

  it('leaves the balance out of the account forms, and shows what the call wrote', async () => {
    for (const path of ['/accounts/new', `/accounts/${account}/edit`]) {
      const form = await fetchPage(server.url, session, path);
      expect(form.status, path).toBe(200);
      expect(form.text, path).toMatch(/name="name"/);
      expect(form.text, path).not.toMatch(/name="balance"/);
    }
    const detail = await fetchPage(server.url, session, `/accounts/${account}`);
    expect(detail.text).toMatch(/Balance[\s\S]{0,400}25/);
  });
});
