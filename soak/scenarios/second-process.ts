import { createDatabase } from '../../bench/lib/databases';
import { sleep } from '../../bench/lib/processes';
import { freePort } from '../../bench/lib/server';
import { Api } from '../lib/api';
import { DB_LABEL, type Context, type DatabaseKind } from '../lib/context';
import { call } from '../lib/http';
import { Ledger, verify, writeLoop } from '../lib/ledger';
import { fmt, ms, row, type Row } from '../lib/report';
import { prepareDatabase } from '../lib/setup';
import { logTail, processState, spawnServer, startServer, stopServer } from '../lib/server';
import { oneLine } from './crash';

/**
 * A second server on the same PGlite data directory while the first serves and writes: it must
 * refuse to start (a clear message, exit code not 0, never serving), and the first must not notice.
 */
export async function secondProcessScenario(ctx: Context, kind: DatabaseKind): Promise<Row> {
  const db = await createDatabase(kind, ctx.config.postgresUrl);
  const problems: string[] = [];
  const ledger = new Ledger();
  let exit = 'still running';
  let refusedInMs: number | null = null;
  let message = '';
  try {
    const token = await prepareDatabase(ctx.root, db.env);
    const port = await freePort();
    const api = new Api({ url: `http://127.0.0.1:${port}` }, token);
    const { server: first } = await startServer({ root: ctx.root, port, env: db.env, logFile: ctx.logFile(`second-${kind}-first`) });
    const me = await api.me();
    let stop = false;
    const writers = Array.from({ length: 4 }, (_, w) => writeLoop(api, ledger, { writer: w, assignee: me.id, stop: () => stop }));
    await sleep(1_000);

    const secondPort = await freePort();
    const second = await spawnServer({ root: ctx.root, port: secondPort, env: db.env, logFile: ctx.logFile(`second-${kind}-second`) });
    const started = performance.now();
    let served = false;
    const code = await new Promise<number | null>((resolve) => {
      second.child.once('exit', (c) => resolve(c));
      const poll = async () => {
        while (second.child.exitCode === null && second.child.signalCode === null && performance.now() - started < 60_000) {
          try {
            if ((await call(`${second.url}/api/health`, { timeoutMs: 2_000 })).status === 200) served = true;
          } catch {
            // not listening: as it should be
          }
          await sleep(100);
        }
        if (second.child.exitCode === null) resolve(null);
      };
      void poll();
    });
    refusedInMs = performance.now() - started;
    message = oneLine(logTail(second.logFile, 400));
    exit = code === null ? 'still running after 60 s' : `exit ${code}`;
    if (code === null) {
      problems.push('the second server did not exit within 60 s');
      await stopServer(second);
    } else if (code === 0) problems.push('the second server exited with code 0');
    if (served) problems.push('the second server answered 200 on /api/health: two processes had the data directory open');
    if (!/in use|another Ninefold process|locked/i.test(message))
      problems.push(`the second server's message does not say the data directory is in use: "${message.slice(-200)}"`);

    await sleep(1_000);
    stop = true;
    await Promise.all(writers);
    if (processState(first.pid) !== 'running') problems.push('the first server died');
    const checked = await verify(api, ledger);
    problems.push(...checked.lost.slice(0, 3), ...checked.halfWritten.slice(0, 3));
    if (ledger.noAnswer || ledger.refusals.size)
      problems.push(
        `the first server failed writes meanwhile: ${fmt(ledger.noAnswer)} unanswered, ${ledger.refusalText() || 'none refused'}`,
      );
    await stopServer(first);
    // And the directory is whole: the next start is clean and serves what was written.
    const { server: again } = await startServer({ root: ctx.root, port, env: db.env, logFile: ctx.logFile(`second-${kind}-again`) });
    const after = await verify(api, ledger);
    problems.push(...after.lost.slice(0, 3));
    await stopServer(again);
    return row({
      scenario: 'second process on one data directory',
      database: DB_LABEL[kind],
      tried: `a 2nd server while the 1st served ${fmt(ledger.writes)} writes`,
      lost: after.lost.length,
      figures: `2nd refused (${exit}) in ${ms(refusedInMs)}: "${/The data directory .*? in use[^.]*/.exec(message)?.[0] ?? message.slice(-120)}"`,
      problems,
    });
  } finally {
    await db.remove();
  }
}
