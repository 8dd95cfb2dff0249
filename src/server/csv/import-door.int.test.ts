import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { Engine } from '@/engine/engine';
import { defineApp } from '@/engine/spec/define';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { importDoor, type ImportDoorAnswer } from './import-door';
import { IMPORT_REPORT_HEADER, reportFromHeader } from './import-report';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

// A marker for Next.js's bundler; outside it, nothing to guard.
vi.mock('server-only', () => ({}));

/**
 * The import form posted without JavaScript goes to the import's own route (/<plural>/import/run)
 * with the import's own limit, never to a server action: the door runs the import as the session's
 * user and has the server render the import page with the report.
 */
const model = buildModel(
  defineApp({
    name: 'notes',
    roles: { admin: {}, reader: {} },
    entities: { note: { fields: { title: { type: 'text', required: true, maxLength: 20 } } } },
    permissions: { note: { admin: { list: true, read: true, create: true }, reader: { list: true, read: true } } },
    constants: { importMaxBytes: { value: 2048, unit: 'bytes' } },
  }),
);

const PLACE = { path: '/notes/import/run', kind: 'route' } as const;

/** The import form as a browser posts it without JavaScript. */
function posted(csv: string, cookie: string | null, goodRows = false): Request {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'notes.csv');
  if (goodRows) form.append('goodRows', '1');
  return new Request('http://app.test/notes/import/run', {
    method: 'POST',
    body: form,
    headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
  });
}

function report(answer: ImportDoorAnswer) {
  if (!('render' in answer)) throw new Error(`expected the page, got ${answer.status}`);
  expect(answer.render.path).toBe('/notes/import');
  return reportFromHeader(answer.render.headers[IMPORT_REPORT_HEADER]!);
}

forEachDatabase('the import form posted without JavaScript', (database) => {
  let engine: Engine;
  let admin: string;
  let reader: string;
  /** The notes' titles, as the admin lists them. */
  const titles = async () => {
    const actor = (await engine.identity.actorForSession(admin.slice('nf_session='.length)))!;
    return (await engine.ops.list(actor, 'note', { limit: 100 })).rows.map((row) => row.title);
  };

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    const session = async (email: string, roles: string[]) => {
      const user = await engine.identity.createUser(SYSTEM_ACTOR, { email, password: 'a long enough password', roles });
      return `nf_session=${(await engine.identity.createSession(user.id)).token}`;
    };
    admin = await session('admin@example.com', ['admin']);
    reader = await session('reader@example.com', ['reader']);
  });
  afterAll(() => engine.close());

  it('is claimed only as a browser’s post to an import’s route: the page’s script streams from the route itself', () => {
    const door = importDoor(engine);
    expect(door.claims({ method: 'POST', headers: { accept: 'text/html' } }, PLACE)).toBe(true);
    expect(door.claims({ method: 'POST', headers: { accept: 'application/x-ndjson' } }, PLACE)).toBe(false);
    expect(door.claims({ method: 'GET', headers: { accept: 'text/html' } }, PLACE)).toBe(false);
    expect(door.claims({ method: 'POST', headers: { accept: 'text/html' } }, { path: '/notes/import', kind: 'page' })).toBe(false);
  });

  it('imports as the session’s user and renders the import page with the report', async () => {
    const door = importDoor(engine);
    expect(report(await door.run(posted('Title\r\nFirst\r\nSecond\r\n', admin), PLACE))).toMatchObject({
      kind: 'done',
      rows: 2,
      created: 2,
      refusedRows: 0,
      fileName: 'notes.csv',
    });
    const refused = report(await door.run(posted(`Title\r\n${'x'.repeat(30)}\r\nThird\r\n`, admin), PLACE));
    expect(refused).toMatchObject({ kind: 'done', rows: 2, created: 0, refusedRows: 1 });
    expect(refused?.kind === 'done' && refused.problems[0]).toMatchObject({ line: 2, column: 'Title' });
    expect(report(await door.run(posted(`Title\r\n${'x'.repeat(30)}\r\nThird\r\n`, admin, true), PLACE))).toMatchObject({
      kind: 'done',
      created: 1,
      refusedRows: 1,
    });
    expect((await titles()).sort()).toEqual(['First', 'Second', 'Third']);
  });

  it('says so on the page when the file is larger than the import takes, or missing', async () => {
    const door = importDoor(engine);
    expect(report(await door.run(posted(`Title\r\n${'x\r\n'.repeat(2000)}`, admin), PLACE))).toMatchObject({
      kind: 'refused',
      title: 'The file is too large',
    });
    const empty = new Request('http://app.test/notes/import/run', {
      method: 'POST',
      body: new FormData(),
      headers: { accept: 'text/html', cookie: admin },
    });
    expect(report(await door.run(empty, PLACE))).toMatchObject({ kind: 'refused', title: 'No file' });
  });

  it('sends a visitor to sign in, and refuses whoever may not create the records, writing nothing', async () => {
    const door = importDoor(engine);
    const before = await titles();
    expect(await door.run(posted('Title\r\nSneaky\r\n', null), PLACE)).toMatchObject({
      status: 303,
      headers: { location: '/sign-in?next=%2Fnotes%2Fimport' },
    });
    expect(await door.run(posted('Title\r\nSneaky\r\n', 'nf_session=made-up'), PLACE)).toMatchObject({ status: 303 });
    expect(await door.run(posted('Title\r\nSneaky\r\n', reader), PLACE)).toMatchObject({ status: 403 });
    expect(await door.run(posted('Title\r\nSneaky\r\n', admin), { path: '/nothing/import/run', kind: 'route' })).toMatchObject({
      status: 404,
    });
    expect(await titles()).toEqual(before);
  });
});
