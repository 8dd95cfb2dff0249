import { beforeAll, describe, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { buildModel } from '@/engine/spec/build';
import { lending } from '@/engine/ops/consequences.fixture';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import { AUDIT_TABLE } from '@/engine/store/schema/desired';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';

const model = buildModel(lending);
const PASSWORD = 'correct horse battery';

forEachDatabase('API: consequences of writes', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let staff: string;
  let clerk: string;
  let counter = 0;
  const everything = () => snapshot(engine.store.db, ['item', 'equipment', 'loan', AUDIT_TABLE]);

  const post = async (token: string, path: string, body: unknown) => api.call('POST', path, { token, body });
  const newItem = async () => (await post(staff, '/items', { name: `Item ${++counter}` })).body;
  const newLoan = async (body: Record<string, unknown>, token = staff) =>
    (await post(token, '/loans', { code: `L${++counter}`, ...body })).body;
  const checkOut = (loan: { id: number; version: number }, token = staff, input?: Record<string, unknown>) =>
    post(token, `/loans/${loan.id}/transitions/checkOut`, { version: loan.version, ...(input ? { input } : {}) });

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const token = async (role: string) => {
      const user = await engine.identity.createUser(SYSTEM_ACTOR, { email: `${role}@example.com`, password: PASSWORD, roles: [role] });
      return (await engine.identity.createApiToken(user.id, { name: role })).token;
    };
    staff = await token('staff');
    clerk = await token('clerk');
  });

  describe('a target chosen by the data', () => {
    it('enters Active up to the amount, and Second approval above it', async () => {
      const small = await newLoan({ item: (await newItem()).id, amount: 10000 });
      const active = await checkOut(small);
      expect(active.status, active.text).toBe(200);
      expect(active.body.state).toBe('active');

      const big = await newLoan({ item: (await newItem()).id, amount: 10001 });
      const waiting = await checkOut(big);
      expect(waiting.status, waiting.text).toBe(200);
      expect(waiting.body.state).toBe('secondApproval');
    });

    it('says both targets in the OpenAPI document', async () => {
      const document = (await api.call('GET', '/openapi.json')).body;
      const operation = document.paths['/loans/{id}/transitions/checkOut'].post;
      expect(operation.summary).toBe('Check out (requested → secondApproval or active)');
      expect(operation.description).toContain('to `secondApproval` when amount is more than secondApprovalOver, otherwise `active`');
      expect(operation.description).toContain('on the item (`item`): set `status` to onLoan, as the acting user');
    });
  });

  describe('effects on referenced records', () => {
    it('changes the item with the loan, and its history names the cause', async () => {
      const item = await newItem();
      const loan = await newLoan({ item: item.id });
      expect((await checkOut(loan)).status).toBe(200);
      expect((await api.call('GET', `/items/${item.id}`, { token: staff })).body.status).toBe('onLoan');
      const history = await api.call('GET', `/items/${item.id}/history`, { token: staff });
      expect(history.status, history.text).toBe(200);
      expect(history.body.items[0]).toMatchObject({
        action: 'update',
        changes: { status: { from: 'available', to: 'onLoan' } },
        cause: { entity: 'loan', id: loan.id, action: 'checkOut', text: `by transition Check out of Loan #${loan.id}` },
      });
    });

    it("answers the effect's refusal, and saves nothing", async () => {
      const item = await newItem();
      const loan = await newLoan({ item: item.id }, clerk);
      const before = await everything();
      const refused = await checkOut(loan, clerk);
      expectProblem(refused, 403, 'FORBIDDEN_FIELD');
      expect(await everything()).toEqual(before);
    });
    it("answers a referenced record's guard refusing an effect taken as the system with its code (declared for the operation)", async () => {
      const equipment = (await post(staff, '/equipments', { name: 'Broken for good' })).body;
      const broken = await post(staff, `/equipments/${equipment.id}/transitions/breakDown`, { version: equipment.version });
      expect(broken.status, broken.text).toBe(200);
      const loan = await newLoan({ item: (await newItem()).id });
      const active = (await checkOut(loan)).body;
      const withEquipment = await api.call('PATCH', `/loans/${loan.id}`, {
        token: staff,
        body: { equipment: equipment.id, version: active.version },
      });
      expect(withEquipment.status, withEquipment.text).toBe(200);
      const before = await everything();
      const refused = await post(staff, `/loans/${loan.id}/transitions/complete`, { version: withEquipment.body.version });
      expectProblem(refused, 409, 'BEYOND_REPAIR');
      expect(await everything()).toEqual(before);
    });

    it('refuses a create whose onCreate effect is refused, and creates nothing', async () => {
      const equipment = (await post(staff, '/equipments', { name: 'Saw' })).body;
      expect((await newLoan({ item: (await newItem()).id, equipment: equipment.id })).state).toBe('requested');
      const item = await newItem();
      const before = await everything();
      // Reserved by the first loan: "Reserve" cannot be taken again.
      const refused = await post(staff, '/loans', { code: 'Second', item: item.id, equipment: equipment.id });
      expectProblem(refused, 409, 'TRANSITION_NOT_ALLOWED');
      expect(await everything()).toEqual(before);
    });
  });

  describe('rules and uniqueWhen with their own codes', () => {
    it('answers a broken rule with its code and status, the message on the field', async () => {
      const before = await everything();
      const refused = await post(staff, '/loans', { code: 'Minus', item: (await newItem()).id, amount: -3 });
      expectProblem(refused, 422, 'NEGATIVE_AMOUNT');
      expect(refused.body.errors).toEqual([{ pointer: '/amount', code: 'noNegative', detail: 'The amount cannot be negative.' }]);
      const after = await everything();
      expect(after.loan).toEqual(before.loan);
    });

    it('answers a second active loan with LOAN_EXISTS (409), the message on the item', async () => {
      const item = await newItem();
      expect((await checkOut(await newLoan({ item: item.id }))).status).toBe(200);
      const second = await newLoan({ item: item.id });
      const before = await everything();
      const refused = await checkOut(second);
      expectProblem(refused, 409, 'LOAN_EXISTS');
      expect(refused.body.detail).toBe('This item is already out.');
      expect(refused.body.errors).toEqual([{ pointer: '/item', code: 'unique', detail: 'This item is already out.' }]);
      expect(await everything()).toEqual(before);
    });
  });
});
