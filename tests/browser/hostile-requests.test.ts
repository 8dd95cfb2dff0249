import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { sendRaw, type RawAnswer, type RawRequest } from './raw-request';

/*
 * What `npm start`'s server (scripts/server.mjs) does with requests no page or form of the
 * application sends, on a real server: a server action's body that is too large, malformed,
 * nested or of the wrong shape is refused before Next.js parses it, in the catalogue's words, and
 * never holds the event loop (health keeps answering while it is sent); an address that cannot be
 * read is a 404, a method no door serves a 405 with Allow; none of it is a 500 or an error logged.
 */
const helpdesk = inject('helpdesk');
const ROOT = path.resolve(__dirname, '../..');

const send = (target: string, options?: RawRequest) => sendRaw(helpdesk.url, target, options);

/** The id of one of the build's server actions, by its exported name. */
function actionId(exportedName: string): string {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { exportedName: string }>;
  };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === exportedName);
  if (!found) throw new Error(`no server action ${exportedName} in the build`);
  return found[0];
}

/** The worst latency of /api/health, asked every 10 ms (by another connection) while `work` runs. */
async function healthDuring(work: () => Promise<unknown>): Promise<number> {
  let worst = 0;
  let running = true;
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${helpdesk.url}/api/health`);
      await response.arrayBuffer();
      worst = Math.max(worst, performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await work();
  // A block that outlasts the answer still shows.
  await new Promise((r) => setTimeout(r, 200));
  running = false;
  await probing;
  return worst;
}

const call = (id: string, body: Buffer, contentType = 'text/plain;charset=UTF-8', chunked = false) =>
  send('/sign-in', {
    method: 'POST',
    headers: { 'next-action': id, accept: 'text/x-component', origin: helpdesk.url, 'content-type': contentType },
    body,
    chunked,
  });

function expectProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status, answer.body.slice(0, 300)).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(answer.body)).toMatchObject({ status, code });
}

/** Log lines of errors the server wrote since `from` (its log file's size then). */
function errorsLoggedSince(from: number): string[] {
  return readFileSync(helpdesk.logFile)
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .filter((line) => /"level":"error"|⨯|Error:/.test(line));
}

describe('a server action’s body', () => {
  it(
    'never holds the event loop: health answers within 100 ms of its quiet latency while hostile bodies arrive',
    { timeout: 180_000 },
    async () => {
      const logFrom = statSync(helpdesk.logFile).size;
      const signIn = actionId('signInAction');
      // The action's code loads at its first call (once per server): not the attack's doing.
      expect((await call(signIn, Buffer.from('[{"message":null,"values":{},"attempt":0},"$K1"]'))).status).toBe(200);
      const big = 30 * 1024 * 1024;
      const nested = (bytes: number) => Buffer.from(`${'['.repeat(Math.floor(bytes / 2))}${']'.repeat(Math.floor(bytes / 2))}`);
      // Refused by its Content-Length, unread; the door says how much a form may post here.
      const declared = await call(signIn, nested(big));
      expectProblem(declared, 413, 'PAYLOAD_TOO_LARGE');
      const limit = Number(/at most (\d+) bytes/.exec(JSON.parse(declared.body).detail as string)?.[1]);
      expect(limit).toBeGreaterThan(100_000);
      expect(limit).toBeLessThan(big);
      const under = limit - 1024;
      // Each body is made before health is watched: making 30 MB is the test's own work, not the server's.
      const attacks: { name: string; body: () => Buffer; chunked?: boolean; status: number; code?: string }[] = [
        { name: '30 MB nested, with Content-Length', body: () => nested(big), status: 413, code: 'PAYLOAD_TOO_LARGE' },
        {
          name: '30 MB nested, streamed without Content-Length',
          body: () => nested(big),
          chunked: true,
          status: 413,
          code: 'PAYLOAD_TOO_LARGE',
        },
        { name: 'nested, just under the limit', body: () => nested(under), status: 422, code: 'VALIDATION_FAILED' },
        {
          name: 'wide, just under the limit',
          body: () => Buffer.from(`[${'[],'.repeat(Math.floor(under / 3) - 1)}[]]`),
          status: 422,
          code: 'VALIDATION_FAILED',
        },
        {
          name: 'a form’s shape, its text just under the limit (Next.js parses it; the action refuses the sign-in)',
          body: () => Buffer.from(JSON.stringify([{ message: null, values: { email: 'x'.repeat(under - 200) }, attempt: 0 }, '$K1'])),
          status: 200,
        },
      ];
      for (const attack of attacks) {
        const body = attack.body();
        // A block the body causes shows in every round; a stall of a machine shared with other work
        // does not: the best of three rounds is taken, each against a quiet window just before it.
        const rounds: string[] = [];
        let best = Infinity;
        for (let round = 0; round < 3 && best >= 100; round += 1) {
          const quiet = await healthDuring(() => new Promise((r) => setTimeout(r, 300)));
          let answer: RawAnswer | null = null;
          const during = await healthDuring(async () => {
            answer = await call(signIn, body, undefined, attack.chunked);
          });
          expect(answer!.status, attack.name).toBe(attack.status);
          if (attack.code) expectProblem(answer!, attack.status, attack.code);
          best = Math.min(best, during - quiet);
          rounds.push(`${Math.round(during)} ms (quiet ${Math.round(quiet)} ms)`);
        }
        expect(best, `${attack.name}: worst health latency ${rounds.join(', ')}`).toBeLessThan(100);
      }
      expect(errorsLoggedSince(logFrom)).toEqual([]);
    },
  );

  it('is refused in the catalogue’s words when it is not what a form or React’s client sends, never a 500', async () => {
    const logFrom = statSync(helpdesk.logFile).size;
    const signIn = actionId('signInAction');
    const malformed = [
      'not json',
      '{}',
      '"x"',
      '[1,2,3]',
      '[{},{}]',
      '[{"a":"$@1"},"$K1"]',
      '[{"__proto__":{"x":1}},"$K1"]',
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    ];
    for (const body of malformed) expectProblem(await call(signIn, Buffer.from(body)), 422, 'VALIDATION_FAILED');
    expectProblem(await call(signIn, Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d])), 422, 'VALIDATION_FAILED');
    expectProblem(await call(signIn, Buffer.from('[]'), 'application/json'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    // A form posted without JavaScript naming an action the build does not hold: the catalogue's 404.
    const form = new FormData();
    form.append(`$ACTION_ID_7f${'0'.repeat(40)}`, '');
    const posted = new Request(helpdesk.url, { method: 'POST', body: form });
    const unknown = await send('/sign-in', {
      method: 'POST',
      headers: { 'content-type': posted.headers.get('content-type')!, accept: 'text/html', origin: helpdesk.url },
      body: Buffer.from(await posted.arrayBuffer()),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['x-nextjs-action-not-found']).toBe('1');
    expect(unknown.body).toContain('<h1>Not found</h1>');
    expect(errorsLoggedSince(logFrom)).toEqual([]);
  });
});

describe('an address that cannot be read', () => {
  it('is a 404 in the catalogue’s words on every kind of address, never a 500', async () => {
    for (const target of ['/tickets/%zz', '/%', '/%C0%AF', '/tickets/1/%E0%A4%A', '/api/v1/tickets/%zz']) {
      const page = await send(target, { headers: { accept: 'text/html' } });
      expect(page.status, target).toBe(404);
      expect(page.headers['content-type'], target).toMatch(/^(text\/html|application\/problem\+json)/);
      expect(page.body, target).toMatch(/Not found/);
      const script = await send(target);
      expectProblem(script, 404, 'NOT_FOUND');
    }
  });
});

describe('a method no door serves', () => {
  it('is a 405 with Allow, on pages, route handlers and the API; OPTIONS says what is allowed', async () => {
    const logFrom = statSync(helpdesk.logFile).size;
    for (const [method, target] of [
      ['TRACE', '/api/v1/anything'],
      ['TRACE', '/api/v1/tickets'],
      ['TRACK', '/api/v1/tickets'],
      ['MADEUP', '/tickets'],
      ['TRACE', '/tickets'],
      ['TRACE', '/api/health'],
      ['PUT', '/tickets'],
      ['DELETE', '/tickets/1'],
      ['PROPFIND', '/tickets'],
      ['PATCH', '/sign-in'],
    ] as const) {
      const answer = await send(target, { method });
      expectProblem(answer, 405, 'METHOD_NOT_ALLOWED');
      expect(answer.headers.allow, `${method} ${target}`).toMatch(/GET/);
    }
    const options = await send('/tickets', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    // CONNECT asks for a tunnel: refused in the same words.
    const connect = await send('127.0.0.1:22', { method: 'CONNECT' });
    expect(connect.status).toBe(405);
    expect(errorsLoggedSince(logFrom)).toEqual([]);
  });
});
