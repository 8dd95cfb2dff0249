import { createDatabase } from '../../bench/lib/databases';
import { sleep } from '../../bench/lib/processes';
import { freePort } from '../../bench/lib/server';
import { Api, type Ticket } from '../lib/api';
import { DB_LABEL, type Context, type DatabaseKind } from '../lib/context';
import { Ledger, verify, writeLoop, type Flight } from '../lib/ledger';
import { fmt, ms, row, type Row } from '../lib/report';
import { prepareDatabase } from '../lib/setup';
import { startServer, stopServer, type SoakServer } from '../lib/server';

/**
 * A request sent this shortly before the signal may still sit unread in the socket when the
 * server stops reading: the server never saw it, so it was not "in flight" for it. Reported apart.
 */
const UNREAD_MS = 10;

/**
 * Graceful shutdown: SIGTERM during a write load. Every request in flight at the signal gets its
 * answer, the process exits 0, the next start is clean, and every 2xx is there afterwards.
 */
export async function shutdownScenario(ctx: Context, kind: DatabaseKind): Promise<Row> {
  const { config } = ctx;
  const db = await createDatabase(kind, config.postgresUrl);
  const problems: string[] = [];
  const ledger = new Ledger();
  let inFlight = 0;
  let answered = 0;
  let succeeded = 0;
  let justSent = 0;
  const exitMs: number[] = [];
  const exits: string[] = [];
  const startMs: number[] = [];
  let rebuilt = 0;
  let listed: ReadonlyMap<number, Ticket> = new Map();
  let lost = 0;
  try {
    const token = await prepareDatabase(ctx.root, db.env);
    const port = await freePort();
    const api = new Api({ url: `http://127.0.0.1:${port}` }, token);
    const start = async (n: number): Promise<SoakServer> => {
      const started = await startServer(
        { root: ctx.root, port, env: db.env, logFile: ctx.logFile(`shutdown-${kind}-${n}`) },
        config.restartBudgetMs,
      );
      if (started.rebuilt) rebuilt++;
      else startMs.push(started.ms);
      return started.server;
    };
    let server = await start(0);
    const me = await api.me();
    for (let s = 1; s <= config.shutdowns; s++) {
      const flights = new Set<Flight>();
      let stop = false;
      const writers = Array.from({ length: config.writers }, (_, w) =>
        writeLoop(api, ledger, { writer: w, assignee: me.id, stop: () => stop, flights }),
      );
      await sleep(1_500 + Math.random() * 1_000);
      const exited = new Promise<string>((resolve) =>
        server.child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit ${code}`)),
      );
      const atSignal = [...flights];
      const signalAt = performance.now();
      process.kill(server.pid, 'SIGTERM');
      stop = true;
      await Promise.all(writers);
      const exit = await Promise.race([exited, sleep(30_000).then(() => 'still running after 30 s')]);
      const tookMs = performance.now() - signalAt;
      exitMs.push(tookMs);
      exits.push(exit);
      if (exit !== 'exit 0') problems.push(`SIGTERM ${s}: ${exit}`);
      if (exit.startsWith('still')) await stopServer(server);
      for (const flight of atSignal) {
        if (typeof flight.outcome === 'number') {
          inFlight++;
          answered++;
          if (flight.outcome < 300) succeeded++;
        } else if (signalAt - flight.startedAt < UNREAD_MS) justSent++;
        else {
          inFlight++;
          problems.push(
            `SIGTERM ${s}: a request in flight for ${ms(signalAt - flight.startedAt)} got no answer (${String(flight.outcome)})`,
          );
        }
      }
      server = await start(s);
      const checked = await verify(api, ledger, listed);
      listed = checked.listed;
      lost = checked.lost.length;
      problems.push(...checked.lost.slice(0, 3), ...checked.halfWritten.slice(0, 3));
      ctx.log(
        `  ${DB_LABEL[kind]} SIGTERM ${s}/${config.shutdowns}: ${exit} in ${ms(tookMs)}, ${atSignal.length} requests in flight, ${checked.lost.length} lost`,
      );
    }
    await stopServer(server);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    await db.remove();
  }
  return row({
    scenario: 'graceful shutdown (SIGTERM)',
    database: DB_LABEL[kind],
    tried: `${exits.length} SIGTERMs during ${config.writers} writers, ${fmt(ledger.writes)} acknowledged writes`,
    lost,
    figures: `in flight at the signal: ${inFlight}, answered ${answered} (${succeeded} 2xx)${justSent ? `, ${justSent} sent < ${UNREAD_MS} ms before it unanswered` : ''}; ${exits.join(', ')} in max ${ms(exitMs.length ? Math.max(...exitMs) : null)}; next start ${ms(startMs.length > 1 ? Math.max(...startMs.slice(1)) : null)}${rebuilt ? ` (${rebuilt} starts rebuilt the app first, not timed)` : ''}`,
    problems,
  });
}
