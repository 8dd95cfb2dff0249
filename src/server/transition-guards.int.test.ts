import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { approvals } from '@/engine/workflow/guards.fixture';
import { VERSION_INPUT } from '@/ui/forms/state';
import { initialTransitionFormState, type TransitionFormState } from '@/ui/record/transition-state';
import type { Redirect } from './record-actions';
import { submitTransition } from './transition-actions';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/*
 * A transition with two guards (not one's own request, then an amount threshold), each with its
 * own code and message, through every door: ops, the REST API (problem+json), the detail page's
 * transition form, and the transition panel's reason for a disabled button. The first guard that
 * fails answers, in the spec's order, and a refusal changes nothing.
 */

const model = buildModel(approvals);
const PASSWORD = 'correct horse battery';
const OWN = { code: 'OWN_REQUEST', status: 403, message: 'You cannot approve your own request.' };
const OVER = { code: 'OVER_APPROVAL_LIMIT', status: 409, message: 'Amounts over the approval limit need a director.' };

forEachDatabase('the guards of a transition, through every door', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let alice: Actor;
  let bob: Actor;
  let bobToken: string;
  let users = 0;

  async function manager(name: string): Promise<{ actor: Actor; token: string }> {
    users += 1;
    const account = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: `manager${users}.${process.pid}@example.com`,
      password: PASSWORD,
      roles: ['manager'],
      name,
    });
    const token = (await engine.identity.createApiToken(account.id, { name: 'tests' })).token;
    return { actor: { userId: account.id, email: account.email, name: account.name, roles: account.roles }, token };
  }

  const expense = (author: Actor, amount: number): Promise<RecordData> =>
    engine.ops.create(author, 'expense', { purpose: `Trip ${amount}`, amount });
  const rows = () => snapshot(engine.store.db, ['expense', 'nf_audit']);

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    ({ actor: alice } = await manager('Alice Manager'));
    ({ actor: bob, token: bobToken } = await manager('Bob Manager'));
  });

  it('ops: the first failing guard answers with its code, status and message; nothing changes', async () => {
    const ownAndOver = await expense(bob, 9000);
    const before = await rows();
    const refusal = await engine.ops
      .transition(bob, 'expense', ownAndOver.id, 'approve', { version: ownAndOver.version })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: OWN.code, status: OWN.status, message: OWN.message });
    const othersOver = await expense(alice, 9000);
    const over = await engine.ops
      .transition(bob, 'expense', othersOver.id, 'approve', { version: othersOver.version })
      .catch((error: unknown) => error);
    expect(over).toMatchObject({ code: OVER.code, status: OVER.status, message: OVER.message });
    expect((await rows()).expense).toHaveLength(before.expense!.length + 1);
    const othersSmall = await expense(alice, 200);
    expect((await engine.ops.transition(bob, 'expense', othersSmall.id, 'approve', { version: othersSmall.version })).state).toBe(
      'approved',
    );
  });

  it('REST: problem+json with the guard’s code and message, for one record and in a bulk result', async () => {
    const own = await expense(bob, 9000);
    const others = await expense(alice, 9000);
    const before = await rows();
    const first = await api.call('POST', `/expenses/${own.id}/transitions/approve`, { token: bobToken, body: { version: own.version } });
    expectProblem(first, OWN.status, OWN.code);
    expect(first.body.detail).toBe(OWN.message);
    const second = await api.call('POST', `/expenses/${others.id}/transitions/approve`, {
      token: bobToken,
      body: { version: others.version },
    });
    expectProblem(second, OVER.status, OVER.code);
    expect(second.body.detail).toBe(OVER.message);
    const bulk = await api.call('POST', '/expenses/transitions/approve', {
      token: bobToken,
      body: {
        items: [
          { id: own.id, version: own.version },
          { id: others.id, version: others.version },
        ],
      },
    });
    expect(bulk.body.results).toEqual([
      { id: own.id, ok: false, status: OWN.status, code: OWN.code, detail: OWN.message },
      { id: others.id, ok: false, status: OVER.status, code: OVER.code, detail: OVER.message },
    ]);
    expect(await rows()).toEqual(before);
  });

  describe('the detail page', () => {
    const posted = (version: number) => {
      const data = new FormData();
      data.append(VERSION_INPUT, String(version));
      return data;
    };
    const refused = (result: TransitionFormState | Redirect): TransitionFormState => {
      if ('redirectTo' in result) expect.fail(`expected a refusal, got a redirect to ${result.redirectTo}`);
      return result;
    };

    it('the transition form says the failing guard’s reason under its code', async () => {
      const own = await expense(bob, 9000);
      const others = await expense(alice, 9000);
      expect(
        refused(await submitTransition(engine, bob, 'expense', own.id, 'approve', initialTransitionFormState, posted(own.version), 'UTC')),
      ).toMatchObject({ code: OWN.code, message: OWN.message });
      expect(
        refused(
          await submitTransition(engine, bob, 'expense', others.id, 'approve', initialTransitionFormState, posted(others.version), 'UTC'),
        ),
      ).toMatchObject({ code: OVER.code, message: OVER.message });
    });

    it('the transition panel disables the button with the failing guard’s reason', async () => {
      const reason = async (author: Actor, amount: number) => {
        const record = await expense(author, amount);
        const approve = (await engine.ops.get(bob, 'expense', record.id)).transitions.find((t) => t.name === 'approve');
        return approve && { available: approve.available, blockedReason: approve.blockedReason };
      };
      expect(await reason(bob, 9000)).toEqual({ available: false, blockedReason: OWN.message });
      expect(await reason(bob, 100)).toEqual({ available: false, blockedReason: OWN.message });
      expect(await reason(alice, 9000)).toEqual({ available: false, blockedReason: OVER.message });
      expect(await reason(alice, 100)).toEqual({ available: true, blockedReason: undefined });
    });
  });
});
