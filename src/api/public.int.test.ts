import { beforeAll, describe, expect, it } from 'vitest';
import { noticeBoardSpec } from '@testing/engine/public';
import { visitorsWelcome } from '@/engine/access/policy';
import { visitorActor } from '@/engine/access/visitor';
import type { TestEngine } from '@testing/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import { ninefoldError, testModel } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { describeMarkdown } from '@/engine/spec/describe';
import { AUDIT_TABLE } from '@/engine/store/schema/desired';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import { forEachDatabase } from '@testing/engine/store';
import { submitCreate } from '@/server/record-actions';
import { initialRecordFormState } from '@/ui/forms/state';
import { buildOpenApiDocument } from './openapi/document';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';

/*
 * Visitors who are not signed in (the built-in `public` role) through ops, the REST door and the
 * form door: they list and read what the public is granted (hidden fields absent), send what it
 * may create (with no author), and are refused everything else, with nothing changed.
 */

const model = buildModel({ ...noticeBoardSpec, constants: { apiRateLimitPerIpPerMinute: { value: 4 } } });
const PASSWORD = 'correct horse battery';
const TABLES = ['notice', 'message', 'board', AUDIT_TABLE];
const visitor = visitorActor();
const asActor = (user: UserAccount): Actor => ({ userId: user.id, email: user.email, name: user.name, roles: user.roles });

forEachDatabase('public visitors', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let editor: Actor;
  let editorToken: string;
  let noRoleToken: string;
  let published: RecordData;
  let draft: RecordData;
  let ipCounter = 0;
  /** A fresh client address per call site: the per-address limit of this spec is 4 a minute. */
  const ip = () => `203.0.113.${(ipCounter += 1)}`;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const [editorUser, noRole] = await Promise.all([
      engine.identity.createUser(SYSTEM_ACTOR, { email: 'editor@example.com', password: PASSWORD, roles: ['agent'] }),
      engine.identity.createUser(SYSTEM_ACTOR, { email: 'someone@example.com', password: PASSWORD, roles: [] }),
    ]);
    editor = asActor(editorUser);
    editorToken = (await engine.identity.createApiToken(editorUser.id, { name: 'tests' })).token;
    noRoleToken = (await engine.identity.createApiToken(noRole.id, { name: 'tests' })).token;
    published = await engine.ops.create(editor, 'notice', { title: 'Open on Sunday', body: 'From ten.', note: 'Ask Sam first' });
    published = await engine.ops.transition(editor, 'notice', published.id, 'publish', { version: published.version });
    draft = await engine.ops.create(editor, 'notice', { title: 'Closed in August', note: 'Not yet' });
  });

  const unchangedBy = async (write: () => Promise<void>) => {
    const before = await snapshot(engine.store.db, TABLES);
    await write();
    expect(await snapshot(engine.store.db, TABLES)).toEqual(before);
  };

  describe('through ops', () => {
    it('lists and reads only what the public scope selects, without the hidden field', async () => {
      const page = await engine.ops.list(visitor, 'notice');
      expect(page.rows.map((r) => r.id)).toEqual([published.id]);
      expect(page.rows[0]).not.toHaveProperty('note');
      const { record } = await engine.ops.get(visitor, 'notice', published.id);
      expect(record.title).toBe('Open on Sunday');
      expect(record).not.toHaveProperty('note');
      expect((await ninefoldError(engine.ops.get(visitor, 'notice', draft.id))).code).toBe('NOT_FOUND');
      expect(engine.ops.access(visitor, 'notice').actions).toEqual({ list: true, read: true, create: false, update: false, delete: false });
    });

    it('refuses every write the public is not granted, changing nothing', async () => {
      await unchangedBy(async () => {
        expect((await ninefoldError(engine.ops.create(visitor, 'notice', { title: 'Visitor notice' }))).code).toBe('FORBIDDEN');
        expect(
          (await ninefoldError(engine.ops.update(visitor, 'notice', published.id, { title: 'Changed' }, published.version))).code,
        ).toBe('FORBIDDEN');
        expect((await ninefoldError(engine.ops.delete(visitor, 'notice', published.id, published.version))).code).toBe('FORBIDDEN');
        expect(
          (await ninefoldError(engine.ops.transition(visitor, 'notice', draft.id, 'publish', { version: draft.version }))).code,
        ).toMatch(/^(FORBIDDEN|NOT_FOUND)$/);
        expect((await ninefoldError(engine.ops.list(visitor, 'board'))).code).toBe('FORBIDDEN');
        expect((await ninefoldError(engine.ops.list(visitor, 'message'))).code).toBe('FORBIDDEN');
      });
    });

    it('records what a visitor sends with no author: created_by, updated_by, the defaulted user field and the history actor are empty', async () => {
      const sent = await engine.ops.create(visitor, 'message', { subject: 'Opening hours', email: 'reader@example.com' });
      // Visitors may not read messages: the answer is the receipt, no field of what they sent.
      expect(Object.keys(sent).sort()).toEqual(['createdAt', 'id', 'updatedAt', 'version']);
      const row = await engine.store.db
        .selectFrom('message')
        .select(['created_by', 'updated_by', 'sender'])
        .where('id', '=', sent.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ created_by: null, updated_by: null, sender: null });
      const audit = await engine.store.db
        .selectFrom(AUDIT_TABLE)
        .select(['actor_id', 'action'])
        .where('entity', '=', 'message')
        .where('record_id', '=', sent.id)
        .execute();
      expect(audit).toEqual([{ actor_id: null, action: 'create' }]);
      // The editors read it, and its history says nobody signed in sent it.
      const history = await engine.ops.history(editor, 'message', sent.id);
      expect(history.entries[0]).toMatchObject({ action: 'create', actor: null });
      // A signed-in sender is the sender.
      const signed = await engine.ops.create(editor, 'message', { subject: 'From the desk', email: 'desk@example.com' });
      expect(signed).toMatchObject({ createdBy: editor.userId, sender: editor.userId });
    });

    it("gives every signed-in user the public's grants too", async () => {
      const someone: Actor = { userId: editor.userId + 1000, email: 'x@example.com', name: 'X', roles: [] };
      expect(engine.ops.access(someone, 'notice').actions.list).toBe(true);
      expect((await engine.ops.list(someone, 'notice')).rows.map((r) => r.id)).toEqual([published.id]);
    });
  });

  describe('through the REST door', () => {
    it('answers a request without credentials as the visitor where the public is granted the operation', async () => {
      const list = await api.call('GET', '/notices', { ip: ip() });
      expect(list.status, list.text).toBe(200);
      expect(list.body.items.map((item: RecordData) => item.id)).toEqual([published.id]);
      expect(list.text).not.toContain('Ask Sam first');
      expect(list.body.items[0]).not.toHaveProperty('note');
      const one = await api.call('GET', `/notices/${published.id}`, { ip: ip() });
      expect(one.status, one.text).toBe(200);
      expect(one.body).not.toHaveProperty('note');
      expectProblem(await api.call('GET', `/notices/${draft.id}`, { ip: ip() }), 404, 'NOT_FOUND');
    });

    it('lets a visitor send what the public may create, with no author, and not read it back', async () => {
      const sent = await api.call('POST', '/messages', { ip: ip(), body: { subject: 'About Sunday', email: 'reader@example.com' } });
      expect(sent.status, sent.text).toBe(201);
      // The receipt only: what was sent is not the visitor's to read back.
      expect(Object.keys(sent.body).sort()).toEqual(['createdAt', 'id', 'updatedAt', 'version']);
      expect(sent.headers.get('location')).toBe(`/api/v1/messages/${sent.body.id}`);
      // Reading messages is not the public's: without credentials that is a sign-in matter, as before.
      expectProblem(await api.call('GET', `/messages/${sent.body.id}`, { ip: ip() }), 401, 'UNAUTHENTICATED');
      const invalid = await api.call('POST', '/messages', { ip: ip(), body: { subject: 'x', email: 'not an email' } });
      expectProblem(invalid, 422, 'VALIDATION_FAILED');
    });

    it('still answers 401 to everything else without credentials, and to a bad credential everywhere, changing nothing', async () => {
      await unchangedBy(async () => {
        expectProblem(await api.call('POST', '/notices', { ip: ip(), body: { title: 'Visitor notice' } }), 401, 'UNAUTHENTICATED');
        expectProblem(
          await api.call('PATCH', `/notices/${published.id}`, {
            ip: ip(),
            body: { title: 'Changed' },
            headers: { 'if-match': `"${published.version}"` },
          }),
          401,
          'UNAUTHENTICATED',
        );
        expectProblem(await api.call('DELETE', `/notices/${published.id}`, { ip: ip() }), 401, 'UNAUTHENTICATED');
        expectProblem(await api.call('GET', '/boards', { ip: ip() }), 401, 'UNAUTHENTICATED');
        expectProblem(await api.call('GET', `/notices/${published.id}/history`, { ip: ip() }), 401, 'UNAUTHENTICATED');
        expectProblem(await api.call('GET', '/messages', { ip: ip() }), 401, 'UNAUTHENTICATED');
        // A token that is not valid is refused, never ignored, on public operations too.
        expectProblem(await api.call('GET', '/notices', { ip: ip(), token: 'nf_not-a-token' }), 401, 'UNAUTHENTICATED');
      });
    });

    it('serves signed-in callers as themselves: the editor sees drafts and notes', async () => {
      const list = await api.call('GET', '/notices', { ip: ip(), token: editorToken });
      expect(list.body.items.map((item: RecordData) => item.id).sort()).toEqual([published.id, draft.id].sort());
      expect(list.body.items.find((item: RecordData) => item.id === draft.id).note).toBe('Not yet');
      const someone = await api.call('GET', '/notices', { ip: ip(), token: noRoleToken });
      expect(someone.body.items.map((item: RecordData) => item.id)).toEqual([published.id]);
    });

    it("counts visitors per address apart from signed-in callers: neither uses up the other's allowance", async () => {
      const shared = ip();
      for (let i = 0; i < 4; i += 1) expect((await api.call('GET', '/notices', { ip: shared })).status).toBe(200);
      const refused = await api.call('GET', '/notices', { ip: shared });
      expectProblem(refused, 429, 'RATE_LIMITED');
      expect(refused.headers.get('ratelimit-policy')).toBe('"visitor";q=4;w=60');
      // The signed-in editor behind the same address is served, and counts in the address's own window.
      const signedIn = await api.call('GET', '/notices', { ip: shared, token: editorToken });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('ratelimit-policy')).toContain('"ip";q=4;w=60');
      // And the reverse: an address whose signed-in window is spent still serves its visitors.
      const busy = ip();
      for (let i = 0; i < 4; i += 1) await api.call('GET', '/boards', { ip: busy, token: editorToken });
      expectProblem(await api.call('GET', '/boards', { ip: busy, token: editorToken }), 429, 'RATE_LIMITED');
      expect((await api.call('GET', '/notices', { ip: busy })).status).toBe(200);
    });

    it('says in the OpenAPI document which operations need no credentials', () => {
      const document = buildOpenApiDocument(model);
      const open = [{}, { cookieAuth: [] }, { bearerAuth: [] }];
      expect(document.paths['/notices']!.get?.security).toEqual(open);
      expect(document.paths['/notices/{id}']!.get?.security).toEqual(open);
      expect(document.paths['/messages']!.post?.security).toEqual(open);
      for (const [path, method] of [
        ['/notices', 'post'],
        ['/notices/{id}', 'patch'],
        ['/notices/{id}', 'delete'],
        ['/messages', 'get'],
        ['/messages/{id}', 'get'],
        ['/boards', 'get'],
      ] as const) {
        expect(document.paths[path]![method]?.security, `${method} ${path}`).toBeUndefined();
      }
    });
  });

  describe('through the form door', () => {
    it("sends a visitor's contact form to the confirmation, and a notice the visitor cannot create back with the refusal", async () => {
      const data = new FormData();
      data.append('subject', 'Sent from the form');
      data.append('email', 'form@example.com');
      expect(await submitCreate(engine, visitor, 'message', initialRecordFormState({}), data, 'UTC')).toEqual({
        redirectTo: '/messages/new?sent=1',
      });
      const stored = await engine.store.db
        .selectFrom('message')
        .select(['created_by'])
        .where('subject', '=', 'Sent from the form')
        .executeTakeFirstOrThrow();
      expect(stored.created_by).toBeNull();
      // The editor may read what they send: their own record's page.
      const mine = await submitCreate(engine, editor, 'message', initialRecordFormState({}), data, 'UTC');
      expect(mine).toMatchObject({ redirectTo: expect.stringMatching(/^\/messages\/\d+$/) });
      await unchangedBy(async () => {
        const refused = await submitCreate(engine, visitor, 'notice', initialRecordFormState({}), data, 'UTC');
        expect(refused).not.toHaveProperty('redirectTo');
      });
    });
  });

  describe('where the spec names it', () => {
    it('is known to the engine and the document only where granted', () => {
      expect(visitorsWelcome(model)).toBe(true);
      expect(visitorsWelcome(testModel)).toBe(false);
      expect(describeMarkdown(model)).toContain('`public` is the built-in role of visitors who are not signed in');
      expect(describeMarkdown(testModel)).not.toContain('built-in role of visitors');
    });

    it('is never given to a user', async () => {
      const error = await ninefoldError(
        engine.identity.createUser(SYSTEM_ACTOR, { email: 'public@example.com', password: PASSWORD, roles: ['public'] }),
      );
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.fieldErrors).toEqual([expect.objectContaining({ field: 'roles', code: 'unknown_role' })]);
      const invite = await ninefoldError(engine.identity.createInvite(SYSTEM_ACTOR, { email: 'invited@example.com', roles: ['public'] }));
      expect(invite.code).toBe('VALIDATION_FAILED');
    });
  });
});
