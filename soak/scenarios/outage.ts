import { createDatabase } from '../../bench/lib/databases';
import { sleep } from '../../bench/lib/processes';
import { freePort } from '../../bench/lib/server';
import { Api, type Ticket } from '../lib/api';
import { DB_LABEL, type Context, type DatabaseKind } from '../lib/context';
import { call, NoAnswer, percentile, problemCode, type Answer } from '../lib/http';
import { Ledger, verify } from '../lib/ledger';
import { fmt, ms, row, type Row } from '../lib/report';
import { prepareDatabase, SOAK_USER } from '../lib/setup';
import { DatabaseProxy, type CutMode } from '../lib/proxy';
import { processState, startServer, stopServer } from '../lib/server';

interface Sample {
  readonly kind: 'read' | 'write';
  readonly startedAt: number;
  readonly endedAt: number;
  /** HTTP status, or the socket error's code when there was no answer. */
  readonly status: number | string;
  readonly code: string | null;
  readonly retryAfter: string | null;
}

/**
 * Database outage (PostgreSQL): the app reaches PostgreSQL through a proxy the soak cuts while
 * readers and writers run. While cut: every failure is a fast 503 SERVICE_UNAVAILABLE with
 * Retry-After, /api/health says the database is unreachable, a page says so in words. Restored:
 * the same process serves again by itself. Nothing acknowledged is lost.
 */
export async function outageScenario(ctx: Context, kind: DatabaseKind): Promise<Row> {
  return outage(ctx, kind, 'reset');
}

/** The same, with the packets dropped instead of the connections reset: only timeouts end the wait. */
export async function partitionScenario(ctx: Context, kind: DatabaseKind): Promise<Row> {
  return outage(ctx, kind, 'drop');
}

async function outage(ctx: Context, kind: DatabaseKind, mode: CutMode): Promise<Row> {
  const { config } = ctx;
  const db = await createDatabase(kind, config.postgresUrl);
  const problems: string[] = [];
  const ledger = new Ledger();
  const samples: Sample[] = [];
  const databaseUrl = db.env.DATABASE_URL;
  if (databaseUrl === undefined) throw new Error('The outage scenario runs on PostgreSQL: the database has no DATABASE_URL');
  const upstream = new URL(databaseUrl);
  const proxy = new DatabaseProxy(upstream.hostname, Number(upstream.port || 5432));
  try {
    const token = await prepareDatabase(ctx.root, db.env);
    const proxied = new URL(upstream);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(await proxy.listen());
    const port = await freePort();
    const api = new Api({ url: `http://127.0.0.1:${port}` }, token);
    const { server } = await startServer({
      root: ctx.root,
      port,
      env: { ...db.env, DATABASE_URL: proxied.toString() },
      logFile: ctx.logFile(`outage-${mode}-${kind}`),
    });
    const me = await api.me();
    const signIn = await call(`${api.target.url}/api/v1/auth/sign-in`, { method: 'POST', json: SOAK_USER });
    const cookie = (signIn.headers['set-cookie'] ?? []).map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('nf_session=')) ?? '';

    let stop = false;
    const clients = Array.from({ length: 10 }, (_, c) => client(api, ledger, samples, me.id, c, () => stop));
    await sleep(2_000);

    const cutAt = performance.now();
    proxy.cut(mode);
    await sleep(1_000);
    const noAnswer = (error: unknown): Answer => ({
      status: 0,
      headers: {},
      body: error instanceof Error ? error.message : String(error),
      ms: 15_000,
    });
    const [health, page] = await Promise.all([
      call(`${api.target.url}/api/health`, { timeoutMs: 15_000 }).catch(noAnswer),
      call(`${api.target.url}/tickets`, { headers: { cookie }, timeoutMs: 15_000 }).catch(noAnswer),
    ]);
    await sleep(Math.max(0, config.outageSeconds * 1000 - (performance.now() - cutAt)));
    const restoredAt = performance.now();
    proxy.restore();

    // Recovered: /api/health 200 and a write acknowledged, both after the restore.
    let healthyAfter: number | null = null;
    while (healthyAfter === null && performance.now() - restoredAt < 60_000) {
      const answer = await call(`${api.target.url}/api/health`).catch(() => null);
      if (answer?.status === 200) healthyAfter = performance.now() - restoredAt;
      else await sleep(100);
    }
    let writeAfter: number | null = null;
    while (writeAfter === null && performance.now() - restoredAt < 60_000) {
      const first = samples.find((s) => s.kind === 'write' && s.startedAt >= restoredAt && typeof s.status === 'number' && s.status < 300);
      if (first) writeAfter = first.endedAt - restoredAt;
      else await sleep(100);
    }
    await sleep(2_000);
    stop = true;
    await Promise.all(clients);

    // While cut: what the clients got.
    // Every request the cut met (in flight at the cut, or sent while cut), however it ended, timed
    // from when the database went away: one that waited out the cut and then succeeded did not fail fast either.
    const during = samples.filter((s) => s.endedAt > cutAt && s.startedAt < restoredAt);
    const waited = (s: Sample) => s.endedAt - Math.max(s.startedAt, cutAt);
    const failures = during.filter((s) => s.status !== 200 && s.status !== 201);
    const p99 = percentile(failures.map(waited), 99);
    const slow = during.filter((s) => waited(s) > 3_000);
    if (slow.length)
      problems.push(
        `${fmt(slow.length)} of ${fmt(during.length)} requests met by the cut waited over 3 s (longest ${ms(Math.max(...slow.map(waited)))}; ${slow.filter((s) => s.status === 200 || s.status === 201).length} of them then succeeded after the restore)`,
      );
    const wrong = samples.filter(
      (s) => typeof s.status !== 'number' || (s.status >= 300 && (s.status !== 503 || s.code !== 'SERVICE_UNAVAILABLE' || !s.retryAfter)),
    );
    if (failures.length === 0) problems.push('no request failed while the database was cut');
    if (wrong.length) {
      const kinds = new Map<string, number>();
      for (const s of wrong) {
        const key =
          `${s.kind} ${s.status} ${s.code ?? ''}${typeof s.status === 'number' && s.status === 503 && !s.retryAfter ? ' without Retry-After' : ''}`.trim();
        kinds.set(key, (kinds.get(key) ?? 0) + 1);
      }
      problems.push(
        `${fmt(wrong.length)} answers were not 503 SERVICE_UNAVAILABLE with Retry-After: ${[...kinds].map(([k, n]) => `${n}× ${k}`).join('; ')}`,
      );
    }
    if (p99 !== null && p99 > 3_000) problems.push(`failures were slow: p99 ${ms(p99)} (budget 3 s)`);
    let healthBody: { status?: string; database?: string } = {};
    try {
      healthBody = JSON.parse(health.body) as typeof healthBody;
    } catch {
      // said below
    }
    if (health.status !== 503 || healthBody.status !== 'unavailable' || healthBody.database !== 'unreachable') {
      problems.push(
        `/api/health while cut answered ${health.status} ${health.body.slice(0, 160)} (expected 503 {status: 'unavailable', database: 'unreachable'})`,
      );
    }
    const words = pageWords(page);
    const pageType = String(page.headers['content-type'] ?? '').split(';')[0];
    if (page.status !== 503 || pageType !== 'text/html' || !/cannot be reached|unavailable|try again/i.test(page.body)) {
      problems.push(
        `the page /tickets while cut answered ${page.status} ${pageType}: "${words}" (expected 503 and a page that says so in words)`,
      );
    }
    if (healthyAfter === null) problems.push('/api/health did not answer 200 within 60 s of the restore');
    if (writeAfter === null) problems.push('no write succeeded within 60 s of the restore');
    if (processState(server.pid) !== 'running') problems.push('the server process ended: it must recover without a restart');

    const checked = await verify(api, ledger);
    problems.push(...checked.lost.slice(0, 3), ...checked.halfWritten.slice(0, 3));
    await stopServer(server);
    return row({
      scenario: mode === 'reset' ? 'database outage (connections reset)' : 'database outage (packets dropped)',
      database: DB_LABEL[kind],
      tried: `${config.outageSeconds} s cut under 10 clients: ${fmt(during.length)} requests met by the cut, ${fmt(ledger.writes)} acknowledged writes in all`,
      lost: checked.lost.length,
      figures: `failures while cut: ${fmt(failures.length)}, p99 ${ms(p99)}; health ${health.status}, page ${page.status} ${pageType} "${words.slice(0, 60)}"; recovered: health in ${ms(healthyAfter)}, first write in ${ms(writeAfter)}, same process`,
      problems,
    });
  } finally {
    await proxy.close();
    await db.remove();
  }
}

/** The page's heading and first paragraph, as a person would read them. */
function pageWords(answer: Answer): string {
  const text = (tag: string) =>
    new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`)
      .exec(answer.body)?.[1]
      ?.replace(/<[^>]+>/g, '')
      .trim() ?? '';
  return [text('h1'), text('p')].filter(Boolean).join(' ').slice(0, 160) || answer.body.slice(0, 80);
}

/** One client: reads the list and its own tickets, creates and updates, and records every answer. */
async function client(api: Api, ledger: Ledger, samples: Sample[], userId: number, c: number, stop: () => boolean): Promise<void> {
  const mine: Ticket[] = [];
  let n = 0;
  while (!stop()) {
    n++;
    const roll = Math.random();
    const kind: Sample['kind'] = roll < 0.5 ? 'read' : 'write';
    const startedAt = performance.now();
    const own = mine.length ? mine[Math.floor(Math.random() * mine.length)] : null;
    let answer: Answer;
    try {
      if (kind === 'read')
        answer = own && roll < 0.25 ? await api.raw(`/api/v1/tickets/${own.id}`) : await api.raw('/api/v1/tickets?limit=20');
      else if (own && roll > 0.8) {
        answer = await api.raw(`/api/v1/tickets/${own.id}`, {
          method: 'PATCH',
          json: { priority: own.priority === 'low' ? 'high' : 'low' },
          headers: { 'if-match': `"${own.version}"` },
        });
        mine.splice(mine.indexOf(own), 1);
      } else
        answer = await api.raw('/api/v1/tickets', {
          method: 'POST',
          json: { subject: `Soak outage client ${c} ticket ${n}`, assignee: userId },
        });
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error;
      samples.push({ kind, startedAt, endedAt: performance.now(), status: error.code, code: null, retryAfter: null });
      if (kind === 'write') ledger.noAnswer++;
      await sleep(50);
      continue;
    }
    const retryAfter = answer.headers['retry-after'];
    samples.push({
      kind,
      startedAt,
      endedAt: performance.now(),
      status: answer.status,
      code: problemCode(answer),
      retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
    });
    if (kind === 'write') {
      ledger.attempts++;
      if (answer.status === 200 || answer.status === 201) {
        const ticket = JSON.parse(answer.body) as Ticket;
        ledger.acknowledge(ticket);
        mine.push(ticket);
      } else ledger.refused(`${answer.status} ${problemCode(answer) ?? ''}`);
    }
    // A client that was told to retry later waits a little, as a polite one would.
    if (answer.status === 503) await sleep(50);
  }
}
