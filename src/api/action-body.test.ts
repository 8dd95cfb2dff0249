import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ACTION_ARGUMENTS, FILE_ACTIONS } from '@/server/actions/arguments';
import { ACTION_BODY_LIMITS, actionBodyProblem, actionPostKind, type KnownActions } from './action-body.mjs';

/*
 * Server-action bodies as scripts/server.mjs checks them before Next.js parses them: what React's
 * own client encodes (the calls here are encoded by it) and what a form without JavaScript posts
 * pass; anything else is refused in the catalogue's words, whatever its size within the limit.
 */

/** React's own encoder of a call's arguments, as the browser runs it (the copy Next.js ships). */
const { encodeReply } = createRequire(import.meta.url)('next/dist/compiled/react-server-dom-turbopack/client.node.js') as {
  encodeReply(value: unknown): Promise<string | FormData>;
};

const ID = { signIn: '60aa', createRecord: '70bb', signOut: '00cc', palette: '40dd', theme: '40ee' };
const NAMES: Record<string, keyof typeof ACTION_ARGUMENTS> = {
  [ID.signIn]: 'signInAction',
  [ID.createRecord]: 'createRecord',
  [ID.signOut]: 'signOutAction',
  [ID.palette]: 'searchPaletteRecords',
  [ID.theme]: 'chooseThemeAction',
};
const actions: KnownActions = {
  ids: new Map(Object.entries(NAMES)),
  argumentsOf: (id) => (id !== undefined && Object.hasOwn(NAMES, id) ? ACTION_ARGUMENTS[NAMES[id]!] : undefined),
};

/** A call as Next.js's client router sends it: React's encoding of the arguments, as text or multipart. */
async function call(args: unknown[]): Promise<{ contentType: string; bytes: Buffer }> {
  const encoded = await encodeReply(args);
  const request = new Request('http://x/', { method: 'POST', body: encoded });
  return { contentType: request.headers.get('content-type')!, bytes: Buffer.from(await request.arrayBuffer()) };
}

const text = (body: string | Buffer) => ({
  contentType: 'text/plain;charset=UTF-8',
  bytes: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

async function multipart(form: FormData): Promise<{ contentType: string; bytes: Buffer }> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { contentType: request.headers.get('content-type')!, bytes: Buffer.from(await request.arrayBuffer()) };
}

const fetched = (id: string, body: { contentType: string; bytes: Buffer }) =>
  actionBodyProblem('fetch', body.contentType, body.bytes, actions, id);
const posted = (body: { contentType: string; bytes: Buffer }) => actionBodyProblem('form', body.contentType, body.bytes, actions);

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe('which posts are server-action posts', () => {
  it('is a page script’s call (next-action) or a multipart post to a page; never a route handler’s or the API’s body', () => {
    expect(actionPostKind('POST', { 'next-action': 'x', 'content-type': 'text/plain' }, 'page')).toBe('fetch');
    expect(actionPostKind('POST', { 'content-type': 'multipart/form-data; boundary=x' }, 'page')).toBe('form');
    expect(actionPostKind('POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'page')).toBeNull();
    expect(actionPostKind('GET', { 'next-action': 'x' }, 'page')).toBeNull();
    for (const kind of ['route', 'api', 'file'] as const)
      expect(actionPostKind('POST', { 'next-action': 'x', 'content-type': 'multipart/form-data; boundary=x' }, kind)).toBeNull();
  });
});

describe('a page script’s call', () => {
  it('passes as React’s client encodes it: a form with its state, a bound action, a search', async () => {
    const form = formOf({ email: 'a@example.com', password: 'secret "quoted" ✓' });
    expect(await fetched(ID.signIn, await call([{ message: null, values: { email: '' }, attempt: 0 }, form]))).toBeNull();
    const state = {
      values: { subject: 'Hi', message: 'x'.repeat(5000) },
      fieldErrors: {},
      message: null,
      attempt: 2,
      stale: { title: 'Changed', changes: [{ field: 'subject', label: 'Subject', from: 'a', to: 'b' }], reloadHref: '/x' },
    };
    expect(await fetched(ID.createRecord, await call(['enquiry', state, form]))).toBeNull();
    expect(await fetched(ID.palette, await call(['the']))).toBeNull();
    // A form whose action takes no argument still gets its FormData from React.
    expect(await fetched(ID.signOut, await call([new FormData()]))).toBeNull();
    // An object written twice is sent once and referred to; a date and undefined have tags of their own.
    const shared = { a: 1 };
    expect(
      await fetched(ID.palette, await call([{ one: shared, two: shared, when: new Date(0), none: undefined, dollars: '$5' }])),
    ).toBeNull();
  });

  it('is refused when not JSON, not UTF-8, or of a media type React does not send', async () => {
    expect(await fetched(ID.signIn, text('not json'))).toEqual({ code: 'VALIDATION_FAILED', detail: 'The body is not valid JSON.' });
    expect(await fetched(ID.signIn, text(Buffer.from([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d])))).toEqual({
      code: 'VALIDATION_FAILED',
      detail: 'The body is not valid UTF-8.',
    });
    expect((await actionBodyProblem('fetch', 'application/json', Buffer.from('[]'), actions, ID.signIn))?.code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('is refused, unparsed, when nested deeper or holding more values than a form sends', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(await fetched(ID.signIn, text(deep))).toEqual({
      code: 'VALIDATION_FAILED',
      detail: `The body is nested more than ${ACTION_BODY_LIMITS.maxDepth} deep.`,
    });
    // Brackets inside strings are text, not nesting.
    expect(await fetched(ID.palette, text(JSON.stringify(['['.repeat(1000)])))).toBeNull();
    const wide = `[${'[],'.repeat(ACTION_BODY_LIMITS.maxValues)}[]]`;
    expect((await fetched(ID.palette, text(wide)))?.detail).toBe(`The body holds more than ${ACTION_BODY_LIMITS.maxValues} values.`);
  });

  it('is refused when its arguments are not what the action takes', async () => {
    for (const body of ['{}', '"x"', '1', 'null', '[1,2,3]', '[]', '[{}]', '[{}, {}]', '["$K1", {}]', `[${'0,'.repeat(40)}0]`]) {
      expect(await fetched(ID.signIn, text(body)), body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(await fetched(ID.createRecord, text('[1, {}, "$K1"]'))).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await fetched(ID.createRecord, text('["$h1", {}, "$K1"]'))).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('is refused when it holds what no form sends: promises, maps, streams, server references, cycles', async () => {
    for (const value of ['$@1', '$Q1', '$W1', '$h1', '$T', '$B1', '$R1', '$i1', '$1', '$0', '$0:0', '$1:a', '$', '$0:__proto__:then']) {
      expect(await fetched(ID.palette, text(JSON.stringify([value]))), value).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: 'The body holds a value that no form sends.',
      });
    }
    // A reference to a value written before it passes; one to what it sits in (a cycle) does not.
    expect(await fetched(ID.palette, text('[{"a":{"x":1},"b":"$0:0:a"}]'))).toBeNull();
    expect(await fetched(ID.palette, text('[{"a":{"x":"$0:0:a"}}]'))).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await fetched(ID.palette, text('[{"a":"$0:0:b","b":{"x":1}}]'))).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await fetched(ID.palette, text('[{"__proto__":{"polluted":1}}]'))).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('is refused as multipart with parts no call has, too many parts, or no arguments (a file passes)', async () => {
    expect(await fetched(ID.signIn, await multipart(formOf({ 0: '[{},"$K1"]', weird: 'x' })))).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await fetched(ID.signIn, await multipart(formOf({ _1_email: 'x' })))).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: 'The body has no arguments (part "0").',
    });
    const withFile = formOf({ 0: '[{},"$K1"]' });
    withFile.append('_1_file', new Blob(['a,b']), 'a.csv');
    // A file is a form's file field: the spec's figure bounds its size (form-post-limit.ts), not its presence.
    expect(await fetched(ID.signIn, await multipart(withFile))).toBeNull();
    const many = formOf({ 0: '[{},"$K1"]' });
    for (let i = 0; i <= ACTION_BODY_LIMITS.maxParts; i += 1) many.append('_1_x', 'y');
    expect((await fetched(ID.signIn, await multipart(many)))?.detail).toBe(`The body has more than ${ACTION_BODY_LIMITS.maxParts} parts.`);
    expect(await actionBodyProblem('fetch', 'multipart/form-data', Buffer.from('x'), actions, ID.signIn)).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('a form posted without JavaScript', () => {
  /** As React renders a form whose action is bound (useActionState adds $ACTION_KEY). */
  const boundForm = (id: string, bound: string, fields: Record<string, string> = {}) =>
    formOf({ $ACTION_REF_1: '', '$ACTION_1:0': JSON.stringify({ id, bound: '$@1' }), '$ACTION_1:1': bound, $ACTION_KEY: 'k1', ...fields });

  it('passes as React renders it: a bound action with its state, or an action named by id', async () => {
    expect(
      await posted(
        await multipart(boundForm(ID.signIn, '[{"message":null,"values":{},"attempt":0}]', { email: 'a@example.com', next: '/' })),
      ),
    ).toBeNull();
    expect(
      await posted(
        await multipart(
          boundForm(ID.createRecord, '["enquiry",{"values":{"subject":""},"fieldErrors":{},"message":null,"attempt":0}]', {
            subject: 'Hi',
          }),
        ),
      ),
    ).toBeNull();
    expect(await posted(await multipart(formOf({ [`$ACTION_ID_${ID.theme}`]: '', theme: 'dark' })))).toBeNull();
    expect(await posted(await multipart(formOf({ [`$ACTION_ID_${ID.signOut}`]: '' })))).toBeNull();
    // A multipart post naming no action is no action: Next.js renders the page without reading it.
    expect(await posted(await multipart(formOf({ anything: 'x' })))).toBeNull();
  });

  it('is a 404 when it names an action the build does not hold', async () => {
    const unknown = { code: 'NOT_FOUND', detail: 'This action does not exist (the page may be from an earlier version: reload it).' };
    expect(await posted(await multipart(formOf({ [`$ACTION_ID_7f${'0'.repeat(40)}`]: '' })))).toEqual(unknown);
    expect(await posted(await multipart(boundForm('7f00', '[{}]')))).toEqual(unknown);
  });

  it('is refused when its action or bound arguments are not what a form sends', async () => {
    for (const form of [
      boundForm(ID.signIn, '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'),
      boundForm(ID.signIn, 'not json'),
      boundForm(ID.signIn, '[1, 2]'),
      boundForm(ID.createRecord, '[{}, "enquiry"]'),
      boundForm(ID.signIn, '[{"a":"$Q1"}]'),
      formOf({ $ACTION_REF_1: '', '$ACTION_1:0': '{"id":"60aa","bound":"$@5"}' }),
      formOf({ $ACTION_REF_1: '', '$ACTION_1:0': '{"id":"60aa","bound":null,"extra":1}' }),
      formOf({ $ACTION_REF_1: '' }),
      formOf({ [`$ACTION_ID_${ID.signIn}`]: '', [`$ACTION_ID_${ID.theme}`]: '' }),
      // Bound to no argument, an action that takes its state does not get one.
      formOf({ [`$ACTION_ID_${ID.signIn}`]: '' }),
    ]) {
      expect(await posted(await multipart(form))).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const withFile = boundForm(ID.signIn, '[{}]');
    withFile.append('file', new Blob(['x']), 'x.csv');
    expect(await posted(await multipart(withFile))).toBeNull();
  });
});

describe('a post larger than a form’s values', () => {
  const limited = (bytes: number): KnownActions => ({
    ...actions,
    bytes,
    valuesLimit: 1_000,
    takesFiles: (id) => id !== undefined && (FILE_ACTIONS as readonly string[]).includes(NAMES[id] ?? ''),
  });
  const withFile = (fields: Record<string, string>) => {
    const form = formOf(fields);
    form.append('attachments', new Blob(['x'.repeat(2_000)]), 'big.txt');
    return form;
  };

  it('passes only to an action that writes a record’s files, by a script or without one', async () => {
    const create = await multipart(
      withFile({
        $ACTION_REF_1: '',
        '$ACTION_1:0': JSON.stringify({ id: ID.createRecord, bound: '$@1' }),
        '$ACTION_1:1': '["ticket",{"values":{},"fieldErrors":{},"message":null,"attempt":0}]',
      }),
    );
    expect(await actionBodyProblem('form', create.contentType, create.bytes, limited(create.bytes.length))).toBeNull();
    const signIn = await multipart(
      withFile({
        $ACTION_REF_1: '',
        '$ACTION_1:0': JSON.stringify({ id: ID.signIn, bound: '$@1' }),
        '$ACTION_1:1': '[{"message":null,"values":{},"attempt":0}]',
      }),
    );
    const refused = { code: 'PAYLOAD_TOO_LARGE', detail: 'This action takes no files: its post can be at most 1000 bytes.' };
    expect(await actionBodyProblem('form', signIn.contentType, signIn.bytes, limited(signIn.bytes.length))).toEqual(refused);
    const byId = await multipart(withFile({ [`$ACTION_ID_${ID.theme}`]: '', theme: 'dark' }));
    expect(await actionBodyProblem('form', byId.contentType, byId.bytes, limited(byId.bytes.length))).toEqual(refused);
    const scripted = await multipart(withFile({ 0: '[{},"$K1"]' }));
    expect(await actionBodyProblem('fetch', scripted.contentType, scripted.bytes, limited(scripted.bytes.length), ID.signIn)).toEqual(
      refused,
    );
    expect(
      await actionBodyProblem('fetch', scripted.contentType, scripted.bytes, limited(scripted.bytes.length), ID.createRecord),
    ).toMatchObject({ code: 'VALIDATION_FAILED' });
    // Within the values' limit, any action may be posted a file (the form's own check refuses it).
    expect(await actionBodyProblem('form', signIn.contentType, signIn.bytes, { ...limited(999), valuesLimit: 100_000 })).toBeNull();
  });
});
