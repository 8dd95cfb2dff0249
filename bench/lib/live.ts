/**
 * The cost of idle live streams (issue 11): open many GET /api/live streams on one server, then
 * measure what they add to its resident memory and how much CPU it spends while nothing changes.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { rssMb, sleep } from './processes';

export interface LiveResult {
  readonly streams: number;
  readonly rssBeforeMb: number | null;
  readonly rssOpenMb: number | null;
  /** Resident memory the open streams added. Budget: < 50 MB for 500. */
  readonly rssGrowthMb: number | null;
  readonly idleSeconds: number;
  /** CPU time (user + system) the server spent over the idle window. Budget: ≈ 0. */
  readonly idleCpuMs: number | null;
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "(comm)": state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return null;
  }
}

/** Opens one stream and resolves once its first bytes arrived; the request stays open. */
function openStream(baseUrl: string, cookie: string, agent: http.Agent): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/api/live`, { agent, headers: { cookie, accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`/api/live answered ${response.statusCode}`));
        response.resume();
        return;
      }
      response.once('data', () => resolve(request));
      response.on('data', () => undefined);
    });
    request.on('error', reject);
  });
}

export async function measureLiveStreams(
  baseUrl: string,
  cookie: string,
  serverPid: number,
  options: { streams?: number; idleSeconds?: number } = {},
): Promise<LiveResult> {
  const streams = options.streams ?? 500;
  const idleSeconds = options.idleSeconds ?? 10;
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  // Let the server settle from what ran before, then take the baseline.
  await sleep(2000);
  const rssBeforeMb = rssMb(serverPid);
  const open: http.ClientRequest[] = [];
  try {
    for (let i = 0; i < streams; i += 50) {
      open.push(...(await Promise.all(Array.from({ length: Math.min(50, streams - i) }, () => openStream(baseUrl, cookie, agent)))));
    }
    await sleep(2000);
    const rssOpenMb = rssMb(serverPid);
    const cpuBefore = cpuMs(serverPid);
    await sleep(idleSeconds * 1000);
    const cpuAfter = cpuMs(serverPid);
    return {
      streams,
      rssBeforeMb,
      rssOpenMb,
      rssGrowthMb: rssBeforeMb !== null && rssOpenMb !== null ? rssOpenMb - rssBeforeMb : null,
      idleSeconds,
      idleCpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
    };
  } finally {
    for (const request of open) request.destroy();
    agent.destroy();
  }
}

/** Budgets of issue 11: what 500 idle streams may cost. */
export const LIVE_BUDGETS = { rssGrowthMb: 50, idleCpuMs: 100 } as const;

/** Report rows (measurement, value, budget, pass) for the live streams. */
export function liveRows(live: LiveResult): { measurement: string; value: string; budget: string; pass: boolean | null }[] {
  const rows: { measurement: string; value: string; budget: string; pass: boolean | null }[] = [];
  if (live.rssGrowthMb !== null) {
    rows.push({
      measurement: `RSS added by ${live.streams} idle live streams (/api/live)`,
      value: `${live.rssGrowthMb.toFixed(1)} MB`,
      budget: `< ${LIVE_BUDGETS.rssGrowthMb} MB`,
      pass: live.rssGrowthMb < LIVE_BUDGETS.rssGrowthMb,
    });
  }
  if (live.idleCpuMs !== null) {
    rows.push({
      measurement: `server CPU over ${live.idleSeconds} s with ${live.streams} idle live streams`,
      value: `${Math.round(live.idleCpuMs)} ms`,
      budget: `< ${LIVE_BUDGETS.idleCpuMs} ms (≈ 0)`,
      pass: live.idleCpuMs < LIVE_BUDGETS.idleCpuMs,
    });
  }
  return rows;
}
