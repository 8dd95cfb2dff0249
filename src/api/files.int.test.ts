import { beforeAll, expect, it } from 'vitest';
import { handleApiRequest } from '@/api/handler';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import { buildModel } from '@/engine/spec/build';
import { defineApp } from '@/engine/spec/define';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, openTestEngine, ORIGIN, type ApiClient } from '@testing/api/api';
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
          attachments: { type: 'files', maxItems: 2, maxBytes: { $constant: 'maxBytes' }, accept: ['image/*', 'text/plain'] },
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

  const send = (method: string, path: string, token: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) =>
    handleApiRequest(
      engine,
      new Request(`${ORIGIN}/api/v1${path}`, { method, body: init.body, headers: { authorization: `Bearer ${token}`, ...init.headers } }),
      { clientIp: '192.0.2.1', origin: ORIGIN },
    );
  const upload = (token: string, files: { name: string; bytes: Uint8Array }[]) => {
    const form = new FormData();
    for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
    return send('POST', '/files', token, { body: form });
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
    const items = ((await uploaded.json()) as { items: { id: number; contentType: string; thumbnailUrl?: string }[] }).items;
    expect(items.map((i) => i.contentType)).toEqual(['image/png', 'text/plain']);
    expect(items[0]?.thumbnailUrl).toBeDefined();
    const ids = items.map((i) => i.id);
    const created = await api.call('POST', '/notes', { token: ann, body: { title: 'Mine', attachments: ids }, unchecked: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body.attachments.map((f: { name: string }) => f.name)).toEqual(['shot.png', 'notes.txt']);

    const text = await send('GET', `/files/${ids[1]}`, ann);
    expect(text.status).toBe(200);
    expect(await text.text()).toBe('hello files');
    expect(text.headers.get('content-disposition')).toMatch(/^attachment; .*filename\*=UTF-8''notes\.txt$/);
    expect(text.headers.get('x-content-type-options')).toBe('nosniff');
    expect(text.headers.get('cache-control')).toBe('private, no-cache');
    expect((await send('GET', `/files/${ids[0]}`, ann)).headers.get('content-disposition')).toMatch(/^inline/);
    const etag = text.headers.get('etag') ?? '';
    expect((await send('GET', `/files/${ids[1]}`, ann, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const part = await send('GET', `/files/${ids[1]}`, ann, { headers: { range: 'bytes=6-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 6-10/11');
    expect(await part.text()).toBe('files');
    expect((await send('GET', `/files/${ids[1]}`, ann, { headers: { range: 'bytes=50-' } })).status).toBe(416);
    const thumb = await send('GET', `/files/${ids[0]}/thumbnail`, ann);
    expect(thumb.headers.get('content-type')).toBe('image/webp');

    // Another customer, or a guessed id: not found, as a record they may not read.
    for (const id of [...ids, 999_999]) expect((await send('GET', `/files/${id}`, bob)).status).toBe(404);
    // A staged upload is its uploader's alone: Bob cannot attach Ann's.
    const annStaged = ((await (await upload(ann, [{ name: 'a.txt', bytes: Buffer.from('a') }])).json()) as { items: { id: number }[] })
      .items;
    const stolen = await api.call('POST', '/notes', {
      token: bob,
      body: { title: 'Theft', attachments: annStaged.map((f) => f.id) },
      unchecked: true,
    });
    expect(stolen.status).toBe(422);
    expect((await send('GET', `/files/${annStaged[0]?.id}`, bob)).status).toBe(404);
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
    const binary = (
      (await (await upload(ann, [{ name: 'x.bin', bytes: new Uint8Array([0, 1, 2, 3]) }])).json()) as { items: { id: number }[] }
    ).items;
    const refused = await api.call('POST', '/notes', {
      token: ann,
      body: { title: 'Bin', attachments: binary.map((f) => f.id) },
      unchecked: true,
    });
    expect(refused.status).toBe(422);
    const notes = await api.call('GET', '/notes', { token: ann, unchecked: true });
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
      unchecked: true,
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
