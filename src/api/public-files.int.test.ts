import { beforeAll, expect, it } from 'vitest';
import { noticeBoardSpec } from '@testing/engine/public';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import type { TestEngine } from '@testing/engine/engine';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, type ApiClient } from '@testing/api/api';
import { buildOpenApiDocument } from './openapi/document';

/*
 * Visitors download the files of what the public reads: a published notice's picture, with no
 * credentials at all; never a draft's, a field hidden from them, a staged upload, or a guessed
 * id (404, as a record they may not read); and they upload nothing (401). In a spec whose
 * public reads no record with files, the downloads still want a sign-in.
 */
const notice = noticeBoardSpec.entities!.notice!;
const withFiles: AppSpec = {
  ...noticeBoardSpec,
  entities: {
    ...noticeBoardSpec.entities!,
    notice: {
      ...notice,
      fields: {
        ...notice.fields,
        picture: { type: 'file', accept: ['image/*'] },
        memo: { type: 'file', label: 'Internal memo' },
      },
    },
  },
  permissions: {
    ...noticeBoardSpec.permissions,
    notice: {
      ...noticeBoardSpec.permissions!.notice!,
      public: { ...noticeBoardSpec.permissions!.notice!.public!, hiddenFields: ['note', 'memo'] },
    },
  },
};
const model = buildModel(withFiles);

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

forEachDatabase('files for visitors', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let token: string;
  let ip = 0;
  const visitor = (path: string) => api.call('GET', path, { ip: `198.51.100.${(ip += 1)}` });

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const agent = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'agent@example.com',
      password: 'correct horse battery',
      roles: ['agent'],
    });
    token = (await engine.identity.createApiToken(agent.id, { name: 'tests' })).token;
  });

  const upload = async (name: string, bytes: Buffer): Promise<number> => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const answer = await api.call('POST', '/files', { token, body: form });
    expect(answer.status, answer.text).toBe(201);
    return (answer.body.items as { id: number }[])[0]!.id;
  };

  it('serves a published record’s file to a visitor, and nothing else', async () => {
    const notice = async (title: string) => {
      const created = await api.call('POST', '/notices', {
        token,
        body: { title, picture: await upload('sign.png', PNG), memo: await upload('memo.txt', Buffer.from('internal')) },
      });
      expect(created.status, created.text).toBe(201);
      return created.body as { id: number; version: number; picture: { id: number }; memo: { id: number } };
    };
    const shown = await notice('Open on Sunday');
    const published = await api.call('POST', `/notices/${shown.id}/transitions/publish`, { token, body: { version: shown.version } });
    expect(published.status, published.text).toBe(200);
    const draft = await notice('Closed in August');

    const picture = await visitor(`/files/${shown.picture.id}`);
    expect(picture.status, picture.text).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(picture.headers.get('cache-control')).toBe('private, no-cache');
    expect((await visitor(`/files/${shown.picture.id}/thumbnail`)).status).toBe(200);

    const staged = await upload('staged.png', PNG);
    for (const id of [shown.memo.id, draft.picture.id, draft.memo.id, staged, 999_999])
      expectProblem(await visitor(`/files/${id}`), 404, 'NOT_FOUND');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)]), 'mine.png');
    expectProblem(await api.call('POST', '/files', { body: form, ip: '198.51.100.250' }), 401, 'UNAUTHENTICATED');
    // The document says the downloads are open to visitors (the empty requirement), the upload is not.
    const paths = buildOpenApiDocument(model).paths;
    expect(paths['/files/{id}']!.get!.security).toContainEqual({});
    expect(paths['/files']!.post!.security).toBeUndefined();
  });
});

forEachDatabase('files where visitors read no record with files', (database) => {
  it('still want a sign-in to download', async () => {
    const closed = buildModel({
      ...withFiles,
      permissions: { ...withFiles.permissions, notice: { agent: withFiles.permissions!.notice!.agent! } },
    });
    const engine = await openTestEngine(database, closed);
    expectProblem(await apiClient(engine).call('GET', '/files/1', { ip: '198.51.100.251' }), 401, 'UNAUTHENTICATED');
    expect(buildOpenApiDocument(closed).paths['/files/{id}']!.get!.security).toBeUndefined();
  });
});
