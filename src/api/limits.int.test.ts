import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { TestEngine } from '@testing/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { handleApiRequest } from './handler';
import { apiClient, expectProblem, openTestEngine, ORIGIN, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/** The helpdesk with its API limits lowered through constants, as a spec author would. */
const lowered: AppSpec = {
  ...helpdesk,
  constants: {
    ...helpdesk.constants,
    apiMaxBodyBytes: { value: 1024, unit: 'bytes' },
    apiMaxPageSize: { value: 3 },
    apiRateLimitPerMinute: { value: 5 },
    apiRateLimitPerIpPerMinute: { value: 8 },
  },
};
const model = buildModel(lowered);
const PASSWORD = 'correct horse battery';

forEachDatabase('API: limits', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let agent: UserAccount;
  /** The customer the agent files tickets for. */
  let customer: UserAccount;
  let token: string;
  let otherToken: string;
  let ipCounter = 0;
  /** A fresh client address per test, so that each starts with a full per-address allowance. */
  const freshIp = () => `198.51.100.${(ipCounter += 1)}`;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    agent = await engine.identity.createUser(SYSTEM_ACTOR, { email: 'agent@example.com', password: PASSWORD, roles: ['agent'] });
    customer = await engine.identity.createUser(SYSTEM_ACTOR, { email: 'customer@example.com', password: PASSWORD, roles: ['customer'] });
    token = (await engine.identity.createApiToken(agent.id, { name: 'one' })).token;
    otherToken = (await engine.identity.createApiToken(agent.id, { name: 'two' })).token;
  });

  describe('request body size', () => {
    const tickets = () => snapshot(engine.store.db, ['ticket']);

    it('refuses a body over the limit with 413, by Content-Length and by the bytes that arrive', async () => {
      const before = await tickets();
      const big = { subject: 'Big one', requester: customer.id, description: 'x'.repeat(2000) };
      const declared = await api.call('POST', '/tickets', { token, ip: freshIp(), body: big, headers: { 'content-length': '2100' } });
      expectProblem(declared, 413, 'PAYLOAD_TOO_LARGE');
      expect(declared.body.detail).toContain('1024 bytes');

      // No Content-Length: the body streams in and is cut off past the limit.
      const chunk = new TextEncoder().encode('x'.repeat(400));
      let pulled = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          if (pulled > 1000) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const request = new Request(`${ORIGIN}/api/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      const streamed = await handleApiRequest(engine, request, { clientIp: freshIp(), origin: ORIGIN });
      expect(streamed.status).toBe(413);
      expect(streamed.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(await streamed.json()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
      // It stopped reading soon after the limit instead of taking all 400 kB.
      expect(pulled).toBeLessThan(10);

      expect(await tickets()).toEqual(before);
      const fits = await api.call('POST', '/tickets', {
        token,
        ip: freshIp(),
        body: { subject: 'Fits', requester: customer.id, description: 'x'.repeat(900) },
      });
      expect(fits.status, fits.text).toBe(201);
    });
  });

  describe('page size', () => {
    it('caps ?limit= at the constant, and the default page size too', async () => {
      const ip = freshIp();
      for (let i = 0; i < 4; i += 1)
        await engine.ops.create({ userId: agent.id, email: agent.email, name: agent.name, roles: ['agent'] }, 'ticket', {
          subject: `Page ${i}`,
          requester: customer.id,
        });
      const tooMany = await api.call('GET', '/tickets?limit=4', { token, ip });
      expectProblem(tooMany, 422, 'VALIDATION_FAILED');
      expect(tooMany.body.errors[0].detail).toBe('The page size must be a whole number from 1 to 3.');
      expect((await api.call('GET', '/tickets?limit=3', { token: otherToken, ip })).body.items).toHaveLength(3);
      const byDefault = await api.call('GET', '/tickets', { token: otherToken, ip });
      expect(byDefault.body.items).toHaveLength(3);
      expect(byDefault.body.nextCursor).not.toBeNull();
    });
  });

  describe('rate limits', () => {
    it('allows the limit per token per minute, then 429 with Retry-After and RateLimit headers', async () => {
      const ip = freshIp();
      const limiter = await engine.identity.createApiToken(agent.id, { name: 'limited' });
      for (let i = 0; i < 5; i += 1) {
        const ok = await api.call('GET', '/auth/me', { token: limiter.token, ip });
        expect(ok.status).toBe(200);
        expect(ok.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60, "ip";q=8;w=60');
        expect(ok.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${4 - i};t=\\d+, "ip";r=${7 - i};t=\\d+$`));
      }
      const before = await snapshot(engine.store.db, ['ticket']);
      const limited = await api.call('POST', '/tickets', {
        token: limiter.token,
        ip,
        body: { subject: 'One too many', requester: customer.id },
      });
      expectProblem(limited, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+, "ip";r=2;t=\d+$/);
      expect(await snapshot(engine.store.db, ['ticket'])).toEqual(before);
      // Another token of the same user has its own allowance.
      const other = await engine.identity.createApiToken(agent.id, { name: 'other' });
      expect((await api.call('GET', '/auth/me', { token: other.token, ip })).status).toBe(200);
    });

    it('counts a signed-in user across sessions', async () => {
      const ip = freshIp();
      const user = await engine.identity.createUser(SYSTEM_ACTOR, { email: 'sessions@example.com', password: PASSWORD, roles: ['agent'] });
      const sessions = await Promise.all([1, 2].map(async () => (await engine.identity.createSession(user.id)).token));
      for (let i = 0; i < 5; i += 1) expect((await api.call('GET', '/auth/me', { session: sessions[i % 2], ip })).status).toBe(200);
      expectProblem(await api.call('GET', '/auth/me', { session: sessions[0], ip: freshIp() }), 429, 'RATE_LIMITED');
    });

    it('allows the limit per address per minute, whoever calls, sign-in attempts included', async () => {
      const ip = freshIp();
      for (let i = 0; i < 8; i += 1) {
        const attempt = await api.call('POST', '/auth/sign-in', { ip, body: { email: 'agent@example.com', password: `guess ${i}` } });
        expectProblem(attempt, 401, 'UNAUTHENTICATED');
        expect(attempt.headers.get('ratelimit')).toMatch(new RegExp(`^"ip";r=${7 - i};t=\\d+$`));
      }
      const right = await api.call('POST', '/auth/sign-in', { ip, body: { email: 'agent@example.com', password: PASSWORD } });
      expectProblem(right, 429, 'RATE_LIMITED');
      expect(right.headers.get('set-cookie')).toBeNull();
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(right.headers.get('ratelimit-policy')).toBe('"ip";q=8;w=60');
      expectProblem(await api.call('GET', '/openapi.json', { ip }), 429, 'RATE_LIMITED');
      expectProblem(await api.call('GET', '/tickets', { ip, token: otherToken }), 429, 'RATE_LIMITED');
      // Another address is not affected.
      expect((await api.call('GET', '/openapi.json', { ip: freshIp() })).status).toBe(200);
    });
  });
});
