import { freePort } from '../../bench/lib/server';
import { createDatabase } from '../../bench/lib/databases';
import { sleep, stopProcess } from '../../bench/lib/processes';
import { Api, type Ticket } from '../lib/api';
import { DB_LABEL, type Context, type DatabaseKind } from '../lib/context';
import { percentile, waitForHealth } from '../lib/http';
import { Ledger, verify, writeLoop } from '../lib/ledger';
import { fmt, ms, row, type Row } from '../lib/report';
import { auditNotices } from '../lib/notices';
import { addColleague, prepareDatabase } from '../lib/setup';
import { logTail, processState, rebuilding, spawnServer, startServer, stopServer } from '../lib/server';

/**
 * Crash safety: kill -9 the server again and again while writers write. The next server is
 * started at once, while the dead one is still a zombie under its keeper (its pid still taken),
 * as a supervisor restarting a crashed server does. After every restart, every acknowledged write
 * must be there, every changed record must have its whole history, every acknowledged upload must
 * read back byte for byte, every ticket (acknowledged or not) must have told its assignee exactly
 * once (the outbox, across the kill), and the start must be clean.
 */
export async function crashScenario(ctx: Context, kind: DatabaseKind): Promise<Row> {
  const { config } = ctx;
  const db = await createDatabase(kind, config.postgresUrl);
  const problems: string[] = [];
  const lostIds = new Set<string>();
  const halfWritten = new Set<string>();
  const restartMs: number[] = [];
  let zombies = 0;
  let rebuilt = 0;
  let kills = 0;
  let notices = { delivered: 0, missing: new Set<number>(), twice: new Set<number>(), waitedMs: [] as number[] };
  let files = 0;
  const ledger = new Ledger();
  try {
    const token = await prepareDatabase(ctx.root, db.env);
    // Before the server starts: the CLI cannot open a PGlite directory a server holds.
    const colleagueToken = await addColleague(ctx.root, db.env);
    const port = await freePort();
    const api = new Api({ url: `http://127.0.0.1:${port}` }, token);
    const colleague = new Api(api.target, colleagueToken);
    const options = (n: number) => ({ root: ctx.root, port, env: db.env, logFile: ctx.logFile(`crash-${kind}-${n}`), keeper: true });
    let { server } = await startServer(options(0));
    const assignee = (await colleague.me()).id;
    let listed: ReadonlyMap<number, Ticket> = new Map();
    for (let k = 1; k <= config.kills; k++) {
      let stop = false;
      const writers = Array.from({ length: config.writers }, (_, w) =>
        writeLoop(api, ledger, { writer: w, assignee, attachEvery: 4, stop: () => stop }),
      );
      const [low, high] = config.writeSecondsBetweenKills;
      await sleep((low + Math.random() * (high - low)) * 1000);
      const dead = server;
      process.kill(dead.pid, 'SIGKILL');
      kills++;
      // The next start follows as soon as the kill has landed (the process is dead, a zombie), not
      // after it is reaped: its keeper never reaps, so its pid is still in the process table when
      // the new server takes the data directory's lock, as when a supervisor restarts at once.
      for (let i = 0; i < 5_000 && processState(dead.pid) === 'running'; i++) await sleep(1);
      if (processState(dead.pid) === 'zombie') zombies++;
      const next = await spawnServer(options(k));
      stop = true;
      await Promise.all(writers);
      let up = await waitForHealth(api.target.url, config.restartBudgetMs, () => processState(next.pid) === 'running');
      if (up === null && rebuilding(next.logFile)) {
        // start.mjs found changed sources and is building: not the crash's doing, and not timed.
        rebuilt++;
        up = (await waitForHealth(api.target.url, 600_000, () => processState(next.pid) === 'running')) === null ? null : -1;
      }
      await stopProcess(dead.child, 1_000);
      // Reaped only now (its keeper gone): a retry must not meet it again.
      for (let i = 0; i < 200 && processState(dead.pid) !== 'gone'; i++) await sleep(50);
      if (up === -1) {
        server = next;
      } else if (up === null) {
        problems.push(
          `restart ${k}: no 200 on /api/health within ${config.restartBudgetMs / 1000} s (${processState(next.pid) === 'running' ? 'still starting' : 'it exited'}); log: ${oneLine(logTail(next.logFile, 400))}`,
        );
        await stopServer(next);
        // Started again once the dead one is reaped, so the remaining rounds still run.
        server = (await startServer(options(k + 1000))).server;
      } else {
        restartMs.push(up);
        server = next;
      }
      const checked = await verify(api, ledger, listed);
      listed = checked.listed;
      files = checked.files;
      // Each ticket was created assigned to the colleague: one notification each, by whichever process delivered it.
      const audit = await auditNotices(colleague, 'ticketAssigned', listed.keys(), 30_000);
      notices = {
        delivered: audit.delivered,
        missing: new Set(audit.missing),
        twice: new Set([...notices.twice, ...audit.twice]),
        waitedMs: [...notices.waitedMs, audit.waitedMs],
      };
      if (audit.missing.length)
        problems.push(
          `after kill ${k}: ${audit.missing.length} tickets never told their assignee (e.g. #${audit.missing.slice(0, 3).join(', #')})`,
        );
      // A lost write's text starts with its id.
      for (const text of checked.lost) lostIds.add(text.split(' ')[0] ?? text);
      for (const text of checked.halfWritten) halfWritten.add(text);
      if (checked.lost.length) problems.push(`after kill ${k}: ${checked.lost.slice(0, 3).join('; ')}`);
      ctx.log(
        `  ${DB_LABEL[kind]} kill ${k}/${config.kills}: back in ${up === -1 ? '(rebuilt first)' : ms(up)}, ${fmt(ledger.writes)} acknowledged writes so far, ${checked.lost.length} lost`,
      );
    }
    await stopServer(server);
    if (halfWritten.size) problems.push(`history does not match the version (half-written?): ${[...halfWritten].slice(0, 3).join('; ')}`);
    if (notices.twice.size)
      problems.push(`${notices.twice.size} tickets told their assignee twice (e.g. #${[...notices.twice].slice(0, 3).join(', #')})`);
    if (ledger.refusals.size) problems.push(`writes refused (none expected: each writer owns its tickets): ${ledger.refusalText()}`);
    if (zombies < kills)
      problems.push(`only ${zombies} of ${kills} restarts met the dead server as a zombie (the lock was not exercised every time)`);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    await db.remove();
  }
  return row({
    scenario: 'crash safety (kill -9)',
    database: DB_LABEL[kind],
    tried: `${kills} kills during ${config.writers} writers, ${fmt(ledger.writes)} acknowledged writes on ${fmt(ledger.acked.size)} tickets (${fmt(ledger.noAnswer)} unanswered), ${fmt(files)} with an uploaded file`,
    lost: lostIds.size + notices.missing.size,
    figures: `restart to 200: p50 ${ms(percentile(restartMs, 50))}, max ${ms(restartMs.length ? Math.max(...restartMs) : null)}; ${zombies}/${kills} restarts beside a zombie${rebuilt ? `; ${rebuilt} restarts rebuilt the app first (sources changed), not timed` : ''}; ${fmt(notices.delivered)} assignment notifications, ${notices.missing.size} missing, ${notices.twice.size} twice (all in within ${ms(notices.waitedMs.length ? Math.max(...notices.waitedMs) : null)} of each restart's check); ${fmt(files)} uploads read back`,
    problems,
  });
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
