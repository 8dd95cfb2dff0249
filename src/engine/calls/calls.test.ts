import { describe, expect, it } from 'vitest';
import { captureLog } from '../log';
import { ninefoldError, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import type { DynamicDatabase } from '../store/types';
import { createCalls, type CallRequest } from './calls';

/*
 * The engine checks a call before any of it runs: the caller's roles first (before the request's
 * body is read), then the params, then the input. No database is reached by a refused call.
 */

const noDatabase = new Proxy({}, { get: () => expect.fail('a refused call reached the database') }) as DynamicDatabase;
const calls = createCalls(testModel, noDatabase);

const actor = (roles: readonly string[]): Actor => ({ userId: 7, email: 'someone@example.com', name: 'Someone', roles });

function request(params: Record<string, string>, body: Record<string, unknown> | null): CallRequest & { readonly reads: () => number } {
  let reads = 0;
  return {
    params,
    readBody: async () => {
      reads += 1;
      return body;
    },
    reads: () => reads,
  };
}

describe('calls in the engine', () => {
  it('refuses a caller none of whose roles may make the call, before reading its body, and logs it', async () => {
    const asked = request({ id: '1' }, { reason: 'Customer is waiting' });
    const { result: error, lines } = await captureLog(() => ninefoldError(calls.run(actor(['customer']), 'escalate', asked)));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toBe('You are not allowed to make the call "escalate".');
    expect(asked.reads()).toBe(0);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'access refused', code: 'FORBIDDEN', call: 'escalate', actor: 7 }));
  });

  it('checks the params before the body, then the input field by field, refusing unknown inputs', async () => {
    const badParam = request({ id: 'seven' }, { reason: 'Customer is waiting' });
    expect((await ninefoldError(calls.run(actor(['agent']), 'escalate', badParam))).code).toBe('VALIDATION_FAILED');
    expect(badParam.reads()).toBe(0);

    const badInput = await ninefoldError(calls.run(actor(['agent']), 'escalate', request({ id: '1' }, { reason: 'x', colour: 'red' })));
    expect(badInput.code).toBe('VALIDATION_FAILED');
    expect(badInput.fieldErrors.map((e) => e.field).sort()).toEqual(['colour', 'reason']);
  });
});
