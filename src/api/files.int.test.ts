import { beforeAll, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import { buildModel } from '@/engine/spec/build';
import { defineApp } from '@/engine/spec/define';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';

/*
 * Files through the API: uploaded as staged files, attached by id, downloaded only through the
 * record's access (another customer, a guessed id: 404), with the download's headers, ranges,
 * and refusals that leave no row behind.
 */
const model = buildModel(
  defineApp({
    name: 'files',
    constants: { maxBytes: { value: 1000, unit: 'bytes' } },
    entities: {
      note: {
        titleField: 'title',
        fields: {
          title: { type: 'text', required: true },
          owner: { type: 'user', default: 'actor', readOnly: true },
          attachments: { type: 'files', maxItems: 3, maxBytes: { $constant: 'maxBytes' }, accept: ['image/*', 'text/plain'] },
        },
      },
    },
    workflows: {
      note: {
        states: { draft: { initial: true }, done: {} },
        transitions: { finish: { from: 'draft', to: 'done', allow: ['customer'] } },
      },
    },
    calls: {
      // A call with a file input: multipart, its file staged then attached by the handler's write.
      addScan: {
        method: 'POST',
        path: '/notes/{id}/scans',
        params: { id: 'integer' },
        input: { scan: { type: 'file', required: true } },
        output: 'note',
        roles: ['customer'],
        errors: ['NOT_FOUND', 'VALIDATION_FAILED'],
        handler: async ({ params, input, ops }) => {
          const id = Number(params.id);
          const { record } = await ops.get('note', id);
          const kept = record.attachments as number[];
          return ops.update('note', id, { attachments: [...kept, ...(input.scan as number[])] }, record.version);
        },
      },
    },
    roles: { customer: {} },
    permissions: {
      note: {
        customer: { list: { own: 'owner' }, read: { own: 'owner' }, create: true, update: { own: 'owner' }, delete: { own: 'owner' } },
      },
    },
  }),
);

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

forEachDatabase('files through the API', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  const tokens: string[] = [];

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    for (const email of ['ann@example.com', 'bob@example.com']) {
      const user = await engine.identity.createUser(SYSTEM_ACTOR, {
        email,
        name: email,
        password: 'correct horse battery',
        roles: ['customer'],
      });
      tokens.push((await engine.identity.createApiToken(user.id, { name: 'tests' })).token);
    }
  });

  // Every answer, downloads included, is checked against the OpenAPI document by the client.
  const send = (method: string, path: string, token: string, init: { headers?: Record<string, string> } = {}) =>
    api.call(method, path, { token, ...init });
  const upload = (token: string, files: { name: string; bytes: Uint8Array }[]) => {
    const form = new FormData();
    for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
    return api.call('POST', '/files', { token, body: form });
  };
  const fileRows = async () =>
    Number(
      (
        await engine.store.db
          .selectFrom('nf_file')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('uploads, attaches by id, and downloads with the headers of a private file', async () => {
    const [ann = '', bob = ''] = tokens;
    const uploaded = await upload(ann, [
      { name: 'shot.png', bytes: PNG },
      { name: 'notes.txt', bytes: Buffer.from('hello files') },
    ]);
    expect(uploaded.status).toBe(201);
    const items = uploaded.body.items as { id: number; contentType: string; thumbnailUrl?: string }[];
    expect(items.map((i) => i.contentType)).toEqual(['image/png', 'text/plain']);
    expect(items[0]?.thumbnailUrl).toBeDefined();
    const ids = items.map((i) => i.id);
    const created = await api.call('POST', '/notes', { token: ann, body: { title: 'Mine', attachments: ids } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.attachments.map((f: { name: string }) => f.name)).toEqual(['shot.png', 'notes.txt']);

    const text = await send('GET', `/files/${ids[1]}`, ann);
    expect(text.status).toBe(200);
    expect(text.text).toBe('hello files');
    expect(text.headers.get('content-disposition')).toMatch(/^attachment; .*filename\*=UTF-8''notes\.txt$/);
    expect(text.headers.get('x-content-type-options')).toBe('nosniff');
    expect(text.headers.get('cache-control')).toBe('private, no-cache');
    expect((await send('GET', `/files/${ids[0]}`, ann)).headers.get('content-disposition')).toMatch(/^inline/);
    const etag = text.headers.get('etag') ?? '';
    expect((await send('GET', `/files/${ids[1]}`, ann, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const part = await send('GET', `/files/${ids[1]}`, ann, { headers: { range: 'bytes=6-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 6-10/11');
    expect(part.text).toBe('files');
    expect((await send('GET', `/files/${ids[1]}`, ann, { headers: { range: 'bytes=50-' } })).status).toBe(416);
    const thumb = await send('GET', `/files/${ids[0]}/thumbnail`, ann);
    expect(thumb.headers.get('content-type')).toBe('image/webp');

    // Another customer, or a guessed id: not found, as a record they may not read.
    for (const id of [...ids, 999_999]) expect((await send('GET', `/files/${id}`, bob)).status).toBe(404);
    // A staged upload is its uploader's alone: Bob cannot attach Ann's.
    const annStaged = (await upload(ann, [{ name: 'a.txt', bytes: Buffer.from('a') }])).body.items as { id: number }[];
    const stolen = await api.call('POST', '/notes', {
      token: bob,
      body: { title: 'Theft', attachments: annStaged.map((f) => f.id) },
    });
    expect(stolen.status).toBe(422);
    expect((await send('GET', `/files/${annStaged[0]?.id}`, bob)).status).toBe(404);
  });

  it('takes multipart writes (text parts as fields, file parts attached in the same write) and describes files in every answer', async () => {
    const [ann = ''] = tokens;
    const form = new FormData();
    form.append('title', 'With a part');
    form.append('attachments', new Blob([new Uint8Array(PNG)]), 'part.png');
    const created = await api.call('POST', '/notes', { token: ann, body: form });
    expect(created.status, created.text).toBe(201);
    expect(created.body.attachments.map((f: { name: string; contentType: string }) => [f.name, f.contentType])).toEqual([
      ['part.png', 'image/png'],
    ]);
    const kept = created.body.attachments[0].id as number;

    const change = new FormData();
    change.append('version', String(created.body.version));
    change.append('attachments', String(kept));
    change.append('attachments', new Blob(['second']), 'second.txt');
    const changed = await api.call('PATCH', `/notes/${created.body.id}`, { token: ann, body: change });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.attachments.map((f: { name: string }) => f.name)).toEqual(['part.png', 'second.txt']);

    const finished = await api.call('POST', `/notes/${created.body.id}/transitions/finish`, {
      token: ann,
      body: { version: changed.body.version },
    });
    expect(finished.status, finished.text).toBe(200);
    expect(finished.body.attachments.map((f: { name: string }) => f.name)).toEqual(['part.png', 'second.txt']);

    const scan = new FormData();
    scan.append('scan', new Blob(['scanned']), 'scan.txt');
    const called = await api.call('POST', `/notes/${created.body.id}/scans`, { token: ann, body: scan });
    expect(called.status, called.text).toBe(200);
    expect(called.body.attachments.map((f: { name: string }) => f.name)).toEqual(['part.png', 'second.txt', 'scan.txt']);
  });

  it('deletes what a refused multipart write brought: a missing field, a part of no file field, a type not accepted, a refused call', async () => {
    const [ann = ''] = tokens;
    const before = await fileRows();
    const refusals: [FormData, number][] = [];
    const missingTitle = new FormData();
    missingTitle.append('attachments', new Blob(['kept?']), 'kept.txt');
    refusals.push([missingTitle, 422]);
    const wrongPart = new FormData();
    wrongPart.append('title', 'Wrong part');
    wrongPart.append('attachments', new Blob(['first']), 'first.txt');
    wrongPart.append('title', new Blob(['x']), 'title.txt');
    refusals.push([wrongPart, 422]);
    const binary = new FormData();
    binary.append('title', 'Binary');
    binary.append('attachments', new Blob(['fine']), 'fine.txt');
    binary.append('attachments', new Blob([new Uint8Array([0, 1, 2, 3])]), 'x.bin');
    refusals.push([binary, 422]);
    for (const [body, status] of refusals) {
      const answer = await api.call('POST', '/notes', { token: ann, body });
      expect(answer.status, answer.text).toBe(status);
      expect(await fileRows()).toBe(before);
    }
    const scan = new FormData();
    scan.append('scan', new Blob(['scanned']), 'scan.txt');
    expect((await api.call('POST', '/notes/999999/scans', { token: ann, body: scan })).status).toBe(404);
    expect(await fileRows()).toBe(before);
  });

  it('refuses a file too large or of a type not accepted, leaving nothing behind; a file taken off or a record deleted takes its bytes', async () => {
    const [ann = ''] = tokens;
    const before = await fileRows();
    const tooLarge = await upload(ann, [
      { name: 'ok.txt', bytes: Buffer.from('fine') },
      { name: 'big.txt', bytes: Buffer.alloc(30_000_000, 97) },
    ]);
    expect(tooLarge.status).toBe(413);
    expect(await fileRows()).toBe(before);
    const binary = (await upload(ann, [{ name: 'x.bin', bytes: new Uint8Array([0, 1, 2, 3]) }])).body.items as { id: number }[];
    const refused = await api.call('POST', '/notes', {
      token: ann,
      body: { title: 'Bin', attachments: binary.map((f) => f.id) },
    });
    expect(refused.status).toBe(422);
    const notes = await api.call('GET', '/notes', { token: ann });
    const note = notes.body.items[0];
    const chunksBefore = Number(
      (
        await engine.store.db
          .selectFrom('nf_file_chunk')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const kept = note.attachments.slice(0, 1).map((f: { id: number }) => f.id);
    const updated = await api.call('PATCH', `/notes/${note.id}`, {
      token: ann,
      body: { attachments: kept, version: note.version },
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await send('GET', `/files/${note.attachments[1].id}`, ann)).status).toBe(404);
    const chunksAfter = Number(
      (
        await engine.store.db
          .selectFrom('nf_file_chunk')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(chunksAfter).toBeLessThan(chunksBefore);
    expect((await send('DELETE', `/notes/${note.id}`, ann)).status).toBe(204);
    expect((await engine.store.db.selectFrom('nf_file').select('id').where('id', 'in', kept).execute()).length).toBe(0);
  });
});
