import { beforeAll, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import { testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';

/*
 * Who may download which file of the helpdesk, by every door a browser or a program has: an API
 * token, and the session cookie the pages' images and links send. A file answers exactly who may
 * read its record and its field (the customer's organization reads its tickets and their public
 * comments; internal notes are staff's); a guessed id and another's staged upload answer 404.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const VIEWERS = ['customerA', 'customerB', 'customerC', 'agent', 'admin'] as const;
type Viewer = (typeof VIEWERS)[number];
const FILES = ['ticketAttachment', 'publicCommentAttachment', 'internalCommentAttachment', 'guessedId', 'othersStagedUpload'] as const;
type FileCase = (typeof FILES)[number];

/** 200 where the viewer reads the file's record and field; 404 everywhere else (never 403: nothing is confirmed). */
const EXPECTED: Record<FileCase, Record<Viewer, 200 | 404>> = {
  ticketAttachment: { customerA: 200, customerB: 200, customerC: 404, agent: 200, admin: 200 },
  publicCommentAttachment: { customerA: 200, customerB: 200, customerC: 404, agent: 200, admin: 200 },
  internalCommentAttachment: { customerA: 404, customerB: 404, customerC: 404, agent: 200, admin: 200 },
  guessedId: { customerA: 404, customerB: 404, customerC: 404, agent: 404, admin: 404 },
  othersStagedUpload: { customerA: 404, customerB: 404, customerC: 404, agent: 404, admin: 404 },
};

interface Credentials {
  readonly token: string;
  readonly session: string;
}

forEachDatabase('files: who downloads what, by every door', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  const people = new Map<Viewer | 'uploader', Credentials>();
  const fileIds = new Map<FileCase, number>();

  const as = (who: Viewer | 'uploader') => people.get(who)!;
  // Every answer is checked against the OpenAPI document by the client.
  const get = (path: string, credentials: { token?: string; session?: string }) => api.call('GET', path, credentials);
  const upload = async (who: Viewer | 'uploader', name: string): Promise<number> => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)]), name);
    const answer = await api.call('POST', '/files', { token: as(who).token, body: form });
    expect(answer.status, answer.text).toBe(201);
    return answer.body.items[0].id as number;
  };

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    api = apiClient(engine);
    const account = async (who: Viewer | 'uploader', roles: string[], organization?: number) => {
      const user = await engine.identity.createUser(SYSTEM_ACTOR, {
        email: `${who.toLowerCase()}@example.com`,
        name: who,
        password: 'correct horse battery',
        roles,
        ...(organization ? { fields: { organization } } : {}),
      });
      people.set(who, {
        token: (await engine.identity.createApiToken(user.id, { name: 'matrix' })).token,
        session: (await engine.identity.createSession(user.id)).token,
      });
    };
    await account('admin', ['admin']);
    await account('agent', ['agent']);
    const organization = async (name: string) => {
      const created = await api.call('POST', '/organizations', { token: as('admin').token, body: { name } });
      expect(created.status, created.text).toBe(201);
      return created.body.id as number;
    };
    const [acme, globex] = [await organization('Acme'), await organization('Globex')];
    await account('customerA', ['customer'], acme);
    await account('customerB', ['customer'], acme);
    await account('customerC', ['customer'], globex);
    await account('uploader', ['customer'], acme);

    fileIds.set('ticketAttachment', await upload('customerA', 'screenshot.png'));
    const ticket = await api.call('POST', '/tickets', {
      token: as('customerA').token,
      body: { subject: 'The screen is blank', attachments: [fileIds.get('ticketAttachment')] },
    });
    expect(ticket.status, ticket.text).toBe(201);
    fileIds.set('publicCommentAttachment', await upload('customerA', 'again.png'));
    const reply = await api.call('POST', '/comments', {
      token: as('customerA').token,
      body: { ticket: ticket.body.id, body: 'Still blank', attachments: [fileIds.get('publicCommentAttachment')] },
    });
    expect(reply.status, reply.text).toBe(201);
    fileIds.set('internalCommentAttachment', await upload('agent', 'trace.png'));
    const note = await api.call('POST', '/comments', {
      token: as('agent').token,
      body: {
        ticket: ticket.body.id,
        body: 'Driver crash, see trace',
        internal: true,
        attachments: [fileIds.get('internalCommentAttachment')],
      },
    });
    expect(note.status, note.text).toBe(201);
    fileIds.set('othersStagedUpload', await upload('uploader', 'not-yet.png'));
    fileIds.set('guessedId', Math.max(...fileIds.values()) + 1000);
  });

  it('answers each viewer, by token and by session cookie, the original and its thumbnail, as the matrix says', async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    for (const file of FILES)
      for (const viewer of VIEWERS)
        for (const door of ['token', 'session'] as const)
          for (const part of ['', '/thumbnail']) {
            const credentials = door === 'token' ? { token: as(viewer).token } : { session: as(viewer).session };
            const answer = await get(`/files/${fileIds.get(file)}${part}`, credentials);
            const label = `${file}${part} ${viewer} by ${door}`;
            answers.push(`${label}: ${answer.status}`);
            expected.push(`${label}: ${EXPECTED[file][viewer]}`);
            if (answer.status === 200) {
              expect(answer.headers.get('cache-control')).toBe('private, no-cache');
              expect(answer.headers.get('content-type')).toBe(part === '' ? 'image/png' : 'image/webp');
            } else {
              // A refusal says nothing of the file: the same problem as for an id that never was.
              expect(answer.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
            }
          }
    expect(answers).toEqual(expected);
  });

  it('lets the uploader alone read their staged upload, and nobody read a file without credentials', async () => {
    const staged = `/files/${fileIds.get('othersStagedUpload')}`;
    expect((await get(staged, { token: as('uploader').token })).status).toBe(200);
    expect((await get(staged, { session: as('uploader').session })).status).toBe(200);
    expect((await api.call('GET', `/files/${fileIds.get('ticketAttachment')}`)).status).toBe(401);
  });

  it('describes in a record read only the files the viewer may download', async () => {
    const comments = await api.call('GET', '/comments', { token: as('customerB').token });
    const names = comments.body.items.flatMap((c: { attachments?: { name: string }[] }) => (c.attachments ?? []).map((f) => f.name));
    expect(names).toEqual(['again.png']);
    const staff = await api.call('GET', '/comments', { token: as('agent').token });
    const staffNames = staff.body.items.flatMap((c: { attachments?: { name: string }[] }) => (c.attachments ?? []).map((f) => f.name));
    expect(staffNames.sort()).toEqual(['again.png', 'trace.png']);
  });
});
