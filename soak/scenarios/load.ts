import { createDatabase } from '../../bench/lib/databases';
import { rssMb, sleep } from '../../bench/lib/processes';
import { freePort } from '../../bench/lib/server';
import { Api, Refused, type Ticket, type UploadedFile } from '../lib/api';
import { DB_LABEL, type Context, type DatabaseKind } from '../lib/context';
import { call, NoAnswer, percentile, problemCode, type Answer } from '../lib/http';
import { fmt, ms, row, type Row } from '../lib/report';
import { auditNotices } from '../lib/notices';
import { addColleague, prepareDatabase, SOAK_USER } from '../lib/setup';
import { startServer, stopServer } from '../lib/server';

/**
 * The mix of one client's requests, by weight: reads of every kind, writes that cannot conflict
 * (each create assigns the ticket to the colleague, who is told), uploads attached to a new
 * ticket, downloads of them, and the inbox.
 */
const MIX = [
  ['api list', 26],
  ['api detail', 13],
  ['api search', 9],
  ['page list', 7],
  ['page detail', 8],
  ['create', 14],
  ['update', 15],
  ['upload', 3],
  ['download', 3],
  ['inbox', 2],
] as const;
type Kind = (typeof MIX)[number][0];
const TOTAL_WEIGHT = MIX.reduce((sum, [, w]) => sum + w, 0);
const SEARCH_WORDS = ['billing', 'printer', 'password', 'soak'];
const LIST_FILTERS = ['', '&state=open', '&priority=high', '&state=new&priority=normal'];

function pickKind(): Kind {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [kind, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return 'api list';
}

interface RunResult {
  readonly requests: number;
  readonly writes: number;
  /** Tickets created (each told the colleague once). */
  readonly created: readonly number[];
  readonly uploads: number;
  readonly latencies: number[];
  readonly errors: Map<string, number>;
  readonly seconds: number;
}

/**
 * Sustained load: 100 clients for 60 s, three runs on one server, mixed reads (lists, details,
 * search, pages, the inbox, file downloads) and writes (creates, uploads attached to new tickets,
 * updates of the client's own tickets with the version it saw, so none may conflict). Zero
 * errors; RSS after the third run within 10 % of after the first; every ticket created told its
 * assignee exactly once.
 */
export async function loadScenario(ctx: Context, kind: DatabaseKind): Promise<Row> {
  const { config } = ctx;
  const db = await createDatabase(kind, config.postgresUrl);
  const problems: string[] = [];
  try {
    const token = await prepareDatabase(ctx.root, db.env, { seed: config.quick ? 300 : 1000 });
    // Before the server starts: the CLI cannot open a PGlite directory a server holds.
    const colleagueToken = await addColleague(ctx.root, db.env);
    const port = await freePort();
    const api = new Api({ url: `http://127.0.0.1:${port}` }, token);
    const colleague = new Api(api.target, colleagueToken);
    const { server } = await startServer({ root: ctx.root, port, env: db.env, logFile: ctx.logFile(`load-${kind}`) });
    const assignee = (await colleague.me()).id;
    const signIn = await call(`${api.target.url}/api/v1/auth/sign-in`, { method: 'POST', json: SOAK_USER });
    const cookie = (signIn.headers['set-cookie'] ?? []).map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('nf_session='));
    if (signIn.status !== 200 || !cookie) throw new Error(`sign-in answered ${signIn.status}: ${signIn.body.slice(0, 200)}`);
    const seeded = (await api.all<Ticket>('/api/v1/tickets?state=new')).map((t) => t.id).slice(0, 500);
    const ids = seeded.length ? seeded : [(await api.createTicket({ subject: 'Soak seed ticket', assignee })).id];

    const runs: RunResult[] = [];
    const rss: number[] = [];
    for (let r = 1; r <= config.loadRuns; r++) {
      const result = await runLoad(api, cookie, assignee, ids, config.loadClients, config.loadSeconds);
      runs.push(result);
      await sleep(3_000);
      const rssNow = rssMb(server.pid) ?? NaN;
      rss.push(rssNow);
      ctx.log(
        `  ${DB_LABEL[kind]} load run ${r}/${config.loadRuns}: ${fmt(result.requests)} requests, p50 ${ms(percentile(result.latencies, 50))}, p99 ${ms(percentile(result.latencies, 99))}, ${[...result.errors.values()].reduce((a, b) => a + b, 0)} errors, RSS ${rssNow.toFixed(0)} MB`,
      );
    }
    // The dispatcher may still be behind the load: each created ticket must reach the colleague's inbox once.
    const audit = await auditNotices(
      colleague,
      'ticketAssigned',
      runs.flatMap((r) => r.created),
      120_000,
    );
    if (audit.missing.length)
      problems.push(`${audit.missing.length} tickets never told their assignee (e.g. #${audit.missing.slice(0, 3).join(', #')})`);
    if (audit.twice.length)
      problems.push(`${audit.twice.length} tickets told their assignee twice (e.g. #${audit.twice.slice(0, 3).join(', #')})`);
    await stopServer(server);

    const all = runs.flatMap((r) => r.latencies);
    const errors = new Map<string, number>();
    for (const run of runs) for (const [key, n] of run.errors) errors.set(key, (errors.get(key) ?? 0) + n);
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    if (errorCount)
      problems.push(
        `${fmt(errorCount)} errors: ${[...errors]
          .slice(0, 6)
          .map(([k, n]) => `${n}× ${k}`)
          .join('; ')}`,
      );
    const [firstRss] = rss;
    const lastRss = rss.at(-1);
    const growth = rss.length > 1 && firstRss !== undefined && lastRss !== undefined ? (lastRss - firstRss) / firstRss : 0;
    if (!(growth <= 0.1))
      problems.push(
        `RSS after run ${rss.length} is ${(growth * 100).toFixed(1)} % above run 1 (budget 10 %): ${rss.map((m) => m.toFixed(0)).join(' → ')} MB`,
      );
    const requests = runs.reduce((a, r) => a + r.requests, 0);
    const writes = runs.reduce((a, r) => a + r.writes, 0);
    const uploads = runs.reduce((a, r) => a + r.uploads, 0);
    const seconds = runs.reduce((a, r) => a + r.seconds, 0);
    return row({
      scenario: 'sustained load',
      database: DB_LABEL[kind],
      tried: `${runs.length} × ${config.loadSeconds} s, ${config.loadClients} clients: ${fmt(requests)} requests (${fmt(writes)} writes, ${fmt(uploads)} uploads)`,
      lost: audit.missing.length,
      figures: `${fmt(Math.round(requests / seconds))} req/s, p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}; ${fmt(errorCount)} errors; RSS after each run ${rss.map((m) => m.toFixed(0)).join(' / ')} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %); ${fmt(audit.delivered)} assignment notifications (${audit.missing.length} missing, ${audit.twice.length} twice), all in ${ms(audit.waitedMs)} after the last run`,
      problems,
    });
  } finally {
    await db.remove();
  }
}

async function runLoad(
  api: Api,
  cookie: string,
  assignee: number,
  ids: readonly number[],
  clients: number,
  seconds: number,
): Promise<RunResult> {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  let requests = 0;
  let writes = 0;
  let uploads = 0;
  const created: number[] = [];
  /** Files uploaded in this run, for downloads. */
  const files: number[] = [];
  const fail = (key: string) => errors.set(key, (errors.get(key) ?? 0) + 1);
  const base = api.target.url;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const mine: Ticket[] = [];
      let n = 0;
      while (performance.now() < deadline) {
        let what = pickKind();
        if (what === 'update' && mine.length === 0) what = 'create';
        if (what === 'download' && files.length === 0) what = 'upload';
        const id = ids[Math.floor(Math.random() * ids.length)];
        let answer: Answer;
        try {
          switch (what) {
            case 'api list':
              answer = await api.raw(`/api/v1/tickets?limit=20${LIST_FILTERS[n % LIST_FILTERS.length]}`);
              break;
            case 'api detail':
              answer = await api.raw(`/api/v1/tickets/${id}`);
              break;
            case 'api search':
              answer = await api.raw(`/api/v1/tickets?limit=20&q=${SEARCH_WORDS[n % SEARCH_WORDS.length]}`);
              break;
            case 'page list':
              answer = await call(`${base}/tickets`, { headers: { cookie } });
              break;
            case 'page detail':
              answer = await call(`${base}/tickets/${id}`, { headers: { cookie } });
              break;
            case 'create':
              answer = await api.raw('/api/v1/tickets', {
                method: 'POST',
                json: { subject: `Soak load client ${client} ticket ${n}`, priority: 'normal', assignee },
              });
              break;
            case 'upload': {
              // An upload and the ticket that attaches it: two requests, timed as one write.
              let file: UploadedFile;
              try {
                file = await api.uploadText(`load-${client}-${n}.txt`, `Soak load file of client ${client}, ${n}.`);
              } catch (error) {
                if (!(error instanceof Refused)) throw error;
                answer = error.answer;
                break;
              }
              files.push(file.id);
              uploads++;
              answer = await api.raw('/api/v1/tickets', {
                method: 'POST',
                json: {
                  subject: `Soak load client ${client} ticket ${n} with a file`,
                  priority: 'normal',
                  assignee,
                  attachments: [file.id],
                },
              });
              break;
            }
            case 'download':
              answer = await api.raw(`/api/v1/files/${files[Math.floor(Math.random() * files.length)]!}`);
              break;
            case 'inbox':
              answer = await api.raw('/api/v1/inbox?limit=20');
              break;
            case 'update': {
              const at = Math.floor(Math.random() * mine.length);
              // An index below the length of a list that is not empty (an update needs a ticket of its own).
              const t = mine[at]!;
              answer = await api.raw(`/api/v1/tickets/${t.id}`, {
                method: 'PATCH',
                json: { priority: t.priority === 'low' ? 'high' : 'low' },
                headers: { 'if-match': `"${t.version}"` },
              });
              if (answer.status === 200) mine[at] = JSON.parse(answer.body) as Ticket;
              else mine.splice(at, 1);
              break;
            }
          }
          n++;
          requests++;
          latencies.push(answer.ms);
          if (what === 'create' || what === 'update' || what === 'upload') writes++;
          if ((what === 'create' || what === 'upload') && answer.status === 201) {
            const ticket = JSON.parse(answer.body) as Ticket;
            mine.push(ticket);
            created.push(ticket.id);
          }
          if (answer.status >= 400 || answer.status < 200) fail(`${what}: ${answer.status} ${problemCode(answer) ?? ''}`.trim());
        } catch (error) {
          if (!(error instanceof NoAnswer)) throw error;
          requests++;
          fail(`${what}: no answer (${error.code})`);
        }
      }
    }),
  );
  return { requests, writes, created, uploads, latencies, errors, seconds: (performance.now() - started) / 1000 };
}
