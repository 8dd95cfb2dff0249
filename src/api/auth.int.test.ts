import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import type { TestEngine } from '@testing/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { handleApiRequest } from './handler';
import { apiClient, expectProblem, openTestEngine, ORIGIN, snapshot, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const model = buildModel(helpdesk);
const PASSWORD = 'correct horse battery';
const TABLES = ['ticket', 'comment', 'organization', 'nf_session'];

forEachDatabase('API: authentication and HTTP', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let agent: UserAccount;
  /** The customer the agent files tickets for. */
  let customer: UserAccount;
  let token: string;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    agent = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'agent@example.com',
      password: PASSWORD,
      roles: ['agent'],
      name: 'Alan Agent',
    });
    customer = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'carl@example.com',
      password: PASSWORD,
      roles: ['customer'],
      name: 'Carl Customer',
    });
    token = (await engine.identity.createApiToken(agent.id, { name: 'tests' })).token;
  });

  const unchangedBy = async (write: () => Promise<void>) => {
    const before = await snapshot(engine.store.db, TABLES);
    await write();
    expect(await snapshot(engine.store.db, TABLES)).toEqual(before);
  };
  const newSession = async () => (await engine.identity.createSession(agent.id)).token;
  const me = { id: expect.any(Number), email: 'agent@example.com', name: 'Alan Agent', roles: ['agent'] };

  describe('who is calling', () => {
    it('answers /auth/me for a token and for a session cookie', async () => {
      const byToken = await api.call('GET', '/auth/me', { token });
      expect(byToken.status).toBe(200);
      expect(byToken.body).toEqual({ ...me, id: agent.id });
      const byCookie = await api.call('GET', '/auth/me', { session: await newSession() });
      expect(byCookie.body).toEqual({ ...me, id: agent.id });
    });

    it('answers 401 with a challenge without credentials, or with a session that ended', async () => {
      const none = await api.call('GET', '/auth/me');
      expectProblem(none, 401, 'UNAUTHENTICATED');
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="api"');
      expectProblem(await api.call('GET', '/tickets'), 401, 'UNAUTHENTICATED');
      expectProblem(await api.call('GET', '/auth/me', { session: 'no-such-session' }), 401, 'UNAUTHENTICATED');
      await unchangedBy(async () => {
        expectProblem(
          await api.call('POST', '/tickets', { body: { subject: 'Anonymous', requester: customer.id } }),
          401,
          'UNAUTHENTICATED',
        );
      });
    });

    it('refuses a malformed, unknown, revoked or expired token with 401', async () => {
      for (const authorization of ['Basic YWRtaW46YWRtaW4=', 'Bearer', 'Bearer two words', `Token ${token}`]) {
        const answer = await api.call('GET', '/auth/me', { headers: { authorization } });
        expectProblem(answer, 401, 'UNAUTHENTICATED');
        expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
      expectProblem(await api.call('GET', '/auth/me', { token: `nf_${'A'.repeat(43)}` }), 401, 'UNAUTHENTICATED');

      const revoked = await engine.identity.createApiToken(agent.id, { name: 'revoked' });
      expect((await api.call('GET', '/auth/me', { token: revoked.token })).status).toBe(200);
      await engine.identity.revokeApiToken(agent.id, revoked.id);
      expectProblem(await api.call('GET', '/auth/me', { token: revoked.token }), 401, 'UNAUTHENTICATED');

      const expired = await engine.identity.createApiToken(agent.id, { name: 'expired' });
      await engine.store.db
        .updateTable('nf_api_token')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', expired.id)
        .execute();
      await unchangedBy(async () => {
        expectProblem(
          await api.call('POST', '/tickets', { token: expired.token, body: { subject: 'Too late', requester: customer.id } }),
          401,
          'UNAUTHENTICATED',
        );
      });
    });

    it('uses the token when both a token and a cookie are sent (no Origin needed)', async () => {
      const created = await api.call('POST', '/tickets', {
        token,
        session: 'stale-cookie',
        body: { subject: 'Token wins', requester: customer.id },
      });
      expect(created.status).toBe(201);
    });

    it('serves openapi.json to anyone', async () => {
      const document = await api.call('GET', '/openapi.json');
      expect(document.status).toBe(200);
      expect(document.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(document.body.openapi).toMatch(/^3\.1\./);
      expect(Object.keys(document.body.paths)).toContain('/tickets/{id}/escalate');
    });
  });

  describe('cross-site requests with the session cookie', () => {
    it('refuses a change without Origin or from another origin (403), accepts it from the application', async () => {
      const session = await newSession();
      await unchangedBy(async () => {
        const missing = await api.call('POST', '/tickets', { session, body: { subject: 'Forged', requester: customer.id } });
        expectProblem(missing, 403, 'FORBIDDEN');
        expect(missing.body.detail).toMatch(/cross-site request refused/i);
        for (const origin of [
          'https://evil.example',
          'null',
          'http://desk.test.evil.example',
          'https://desk.test',
          'http://desk.test:8080',
        ]) {
          expectProblem(
            await api.call('POST', '/tickets', { session, headers: { origin }, body: { subject: 'Forged', requester: customer.id } }),
            403,
            'FORBIDDEN',
          );
        }
        expectProblem(await api.call('DELETE', '/tickets/1', { session }), 403, 'FORBIDDEN');
        expectProblem(await api.call('PATCH', '/tickets/1', { session, body: { version: 1 } }), 403, 'FORBIDDEN');
      });
      const created = await api.call('POST', '/tickets', {
        session,
        headers: { origin: ORIGIN },
        body: { subject: 'From the app', requester: customer.id },
      });
      expect(created.status).toBe(201);
      expect(
        (
          await api.call('POST', '/tickets', {
            session,
            headers: { origin: `${ORIGIN}:80` },
            body: { subject: 'Default port', requester: customer.id },
          })
        ).status,
      ).toBe(201);
    });

    it('lets reads through without Origin', async () => {
      expect((await api.call('GET', '/tickets', { session: await newSession() })).status).toBe(200);
    });
  });

  describe('sign-in and sign-out', () => {
    it('signs in with a session cookie that then works, and is Secure over https', async () => {
      const signedIn = await api.call('POST', '/auth/sign-in', { body: { email: 'AGENT@example.com', password: PASSWORD } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toEqual({ user: { ...me, id: agent.id } });
      const cookie = signedIn.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^nf_session=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$/);
      const session = cookie.split(';')[0]!.split('=')[1];
      expect((await api.call('GET', '/auth/me', { session })).body.id).toBe(agent.id);

      // Over https as the server found it (scripts/server.mjs); a client's X-Forwarded-Proto alone is not believed.
      const overHttps = await api.call('POST', '/auth/sign-in', {
        headers: { 'x-ninefold-proto': 'https' },
        body: { email: 'agent@example.com', password: PASSWORD },
      });
      expect(overHttps.headers.get('set-cookie')).toMatch(/; Secure$/);
      const claimed = await api.call('POST', '/auth/sign-in', {
        headers: { 'x-forwarded-proto': 'https' },
        body: { email: 'agent@example.com', password: PASSWORD },
      });
      expect(claimed.headers.get('set-cookie')).not.toMatch(/Secure/);
    });

    it('refuses wrong credentials with 401 and sets no cookie', async () => {
      await unchangedBy(async () => {
        for (const body of [
          { email: 'agent@example.com', password: 'wrong password' },
          { email: 'nobody@example.com', password: PASSWORD },
        ]) {
          const refused = await api.call('POST', '/auth/sign-in', { body });
          expectProblem(refused, 401, 'UNAUTHENTICATED');
          expect(refused.headers.get('set-cookie')).toBeNull();
        }
      });
    });

    it('refuses a sign-in body that is not {email, password}', async () => {
      for (const body of [
        { email: 'agent@example.com' },
        { email: 1, password: 2 },
        { email: 'a@example.com', password: 'x', remember: true },
      ]) {
        expectProblem(await api.call('POST', '/auth/sign-in', { body }), 422, 'VALIDATION_FAILED');
      }
      expectProblem(
        await api.call('POST', '/auth/sign-in', {
          body: 'email=a&password=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('signs out: ends the server session and clears the cookie, only from the application', async () => {
      const session = await newSession();
      expectProblem(await api.call('POST', '/auth/sign-out', { session }), 403, 'FORBIDDEN');
      expect((await api.call('GET', '/auth/me', { session })).status).toBe(200);
      const out = await api.call('POST', '/auth/sign-out', { session, headers: { origin: ORIGIN } });
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ signedOut: true });
      expect(out.headers.get('set-cookie')).toMatch(
        /^nf_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; HttpOnly; SameSite=Lax$/,
      );
      expectProblem(await api.call('GET', '/auth/me', { session }), 401, 'UNAUTHENTICATED');
      expect((await api.call('POST', '/auth/sign-out')).status).toBe(200);
    });
  });

  describe('HTTP rules', () => {
    it('answers JSON bodies only: 415 for another content type, 422 for broken JSON or a non-object', async () => {
      await unchangedBy(async () => {
        expectProblem(
          await api.call('POST', '/tickets', { token, body: 'subject=Hi', headers: { 'content-type': 'text/plain' } }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
        expectProblem(
          await api.call('POST', '/tickets', {
            token,
            body: '{"subject":"Hi"}',
            headers: { 'content-type': 'application/json; charset=latin1' },
          }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
        expectProblem(
          await api.call('POST', '/tickets', { token, body: '{"subject":"Hi"}', headers: { 'content-type': '' } }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
        for (const [text, detail] of [
          ['{"subject": "Hi"', /not valid JSON/],
          ['', /empty/],
          ['[1, 2]', /must be a JSON object, not an array/],
          ['null', /not null/],
          ['"text"', /not a string/],
        ] as const) {
          const answer = await api.call('POST', '/tickets', { token, body: text });
          expectProblem(answer, 422, 'VALIDATION_FAILED');
          expect(answer.body.detail).toMatch(detail);
        }
        const notUtf8 = await api.call('POST', '/tickets', { token, body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) });
        expectProblem(notUtf8, 422, 'VALIDATION_FAILED');
      });
      expect(
        (
          await api.call('POST', '/tickets', {
            token,
            body: { subject: 'Vendor JSON', requester: customer.id },
            headers: { 'content-type': 'application/merge-patch+json' },
          })
        ).status,
      ).toBe(201);
    });

    it('answers 405 with Allow for a wrong method, and OPTIONS with 204 and Allow', async () => {
      await unchangedBy(async () => {
        const put = await api.call('PUT', '/tickets/1', { token, body: { subject: 'Replace' } });
        expectProblem(put, 405, 'METHOD_NOT_ALLOWED');
        expect(put.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
        const del = await api.call('DELETE', '/tickets', { token });
        expectProblem(del, 405, 'METHOD_NOT_ALLOWED');
        expect(del.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
        const me = await api.call('POST', '/auth/me', { token });
        expect(me.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        expect((await api.call('GET', '/tickets/1/escalate', { token })).headers.get('allow')).toBe('POST, OPTIONS');
      });
      const options = await api.call('OPTIONS', '/tickets/1');
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
      expect(options.text).toBe('');
    });

    it('answers 404 for an unknown address, signed in or not', async () => {
      for (const path of ['/nope', '/tickets/1/nope', '/ticket', '/auth', '/tickets/1/', '/%E0%A4%A', '']) {
        expectProblem(await api.call('GET', path, { token }), 404, 'NOT_FOUND');
      }
      expectProblem(await api.call('POST', '/nope'), 404, 'NOT_FOUND');
      const outside = await handleApiRequest(engine, new Request(`${ORIGIN}/api/v2/tickets`), { clientIp: '192.0.2.9', origin: ORIGIN });
      expect(outside.status).toBe(404);
    });

    it('sends every answer uncached, with the rate limit headers', async () => {
      const answer = await api.call('GET', '/tickets?limit=1', { token });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=600;w=60, "ip";q=1200;w=60');
      expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+, "ip";r=\d+;t=\d+$/);
      const anonymous = await api.call('GET', '/openapi.json');
      expect(anonymous.headers.get('ratelimit-policy')).toBe('"ip";q=1200;w=60');
    });
  });
});
