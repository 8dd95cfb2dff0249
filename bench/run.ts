/**
 * `npm run bench` (full) and `npm run bench -- --quick`: builds the app, and for PGlite and
 * PostgreSQL seeds data, starts the server the way a user does, measures, stops everything it
 * started, prints a Markdown table and writes bench/results/<date>.json. See README "Benchmarks".
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent, timedBuild, timedNpmCi } from './lib/build';
import { measureBrowser } from './lib/browser';
import { measureLiveStreams } from './lib/live';
import { createAgentToken, seed } from './lib/cli';
import { configFromArgs, type BenchConfig, type DatabaseKind } from './lib/config';
import { createDatabase, postgresVersion } from './lib/databases';
import { checkHome, checkPage, getJson, load, sequential, signInCookie, type Auth, type Request } from './lib/http';
import { machineInfo } from './lib/machine';
import { cleanUpEverything, installSignalHandlers, rssMb, sleep } from './lib/processes';
import { summarizeProfile, toggleProfiler, waitForProfile, type ProfileSummary } from './lib/profile';
import { renderReport } from './lib/report';
import {
  GROWTH_CASES,
  HTTP_CASES,
  HTTP_LABELS,
  PAGE_GROWTH_CASES,
  type BenchResults,
  type DatabaseResult,
  type GrowthAt,
  type HttpCase,
} from './lib/results';
import { startServer, stopServer, type BenchServer } from './lib/server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = path.join(root, 'bench', 'results', 'tmp');
const began = performance.now();

function log(message: string): void {
  process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface ListPageJson {
  readonly items: readonly { readonly id: number; readonly requester: number }[];
  readonly nextCursor: string | null;
}

/**
 * The first ticket of the list, for the detail page's measurements (the seeded database has
 * some), and its requester, a customer, whom the tickets the bench files name.
 */
async function firstTicket(baseUrl: string, auth: Auth): Promise<{ id: number; requester: number }> {
  const [first] = (await getJson<ListPageJson>(baseUrl, '/api/v1/tickets?limit=50', auth)).items;
  if (!first) throw new Error('The ticket list is empty: nothing to open for the detail page');
  return first;
}

/** A word that occurs in the demo subjects ("Question about ... billing"). */
const SEARCH_WORD = 'billing';
const FILTER_SORT = 'state=open&priority=high&sort=-dueAt';

async function growthAt(server: BenchServer, auth: Auth, config: BenchConfig): Promise<GrowthAt> {
  const api = { authorization: auth.bearer };
  const page = { cookie: auth.cookie };
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const listed: ListPageJson = await getJson<ListPageJson>(
      server.url,
      `/api/v1/tickets?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      auth,
    );
    if (!listed.nextCursor) throw new Error(`The list ended after ${i + 1} pages; no deep cursor`);
    cursor = listed.nextCursor;
  }
  const deep = encodeURIComponent(cursor!);
  const requests: Record<keyof GrowthAt, Request> = {
    'page:list': { path: '/tickets', headers: page },
    'page:deep': { path: `/tickets?cursor=${deep}`, headers: page },
    'page:filterSort': { path: `/tickets?${FILTER_SORT}`, headers: page },
    'page:search': { path: `/tickets?q=${SEARCH_WORD}`, headers: page },
    'api:list': { path: '/api/v1/tickets?limit=50', headers: api },
    'api:deep': { path: `/api/v1/tickets?limit=50&cursor=${deep}`, headers: api },
    'api:filterSort': { path: `/api/v1/tickets?limit=50&${FILTER_SORT}`, headers: api },
    'api:search': { path: `/api/v1/tickets?limit=50&q=${SEARCH_WORD}`, headers: api },
    'page:home': { path: '/', headers: page },
  };
  for (const key of ['page:list', 'page:deep', 'page:filterSort', 'page:search'] as const)
    await checkPage(server.url, requests[key].path, auth.cookie, 10);
  await checkHome(server.url, auth.cookie);
  const out: Partial<GrowthAt> = {};
  for (const door of ['page', 'api'] as const) {
    for (const name of GROWTH_CASES) {
      const key = `${door}:${name}` as const;
      out[key] = await sequential(server.url, requests[key], config.growthSamples, config.growthWarmup);
      log(`  ${key}: p50 ${out[key].p50Ms.toFixed(2)} ms`);
    }
  }
  for (const name of PAGE_GROWTH_CASES) {
    const key = `page:${name}` as const;
    out[key] = await sequential(server.url, requests[key], config.growthSamples, config.growthWarmup);
    log(`  ${key}: p50 ${out[key].p50Ms.toFixed(2)} ms`);
  }
  return out as GrowthAt;
}

function httpRequests(auth: Auth, detailId: number, requester: number): Record<HttpCase, Request> {
  const page = { cookie: auth.cookie };
  const api = { authorization: auth.bearer };
  return {
    listPage: { path: '/tickets', headers: page },
    detailPage: { path: `/tickets/${detailId}`, headers: page },
    filteredPage: { path: `/tickets?${FILTER_SORT}&q=${SEARCH_WORD}`, headers: page },
    homePage: { path: '/', headers: page },
    apiList: { path: '/api/v1/tickets?limit=50', headers: api },
    apiGet: { path: `/api/v1/tickets/${detailId}`, headers: api },
    apiCreate: {
      path: '/api/v1/tickets',
      method: 'POST',
      headers: { ...api, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Bench ticket', requester }),
    },
    baseline: { path: '/diagnostics/baseline' },
  };
}

async function idleRss(server: BenchServer, config: BenchConfig): Promise<number | null> {
  await sleep(config.idleSeconds * 1000);
  return rssMb(server.serverPid);
}

async function benchDatabase(kind: DatabaseKind, config: BenchConfig): Promise<DatabaseResult> {
  const small = config.smallTickets;
  const large = config.largeTickets[kind];
  const result: DatabaseResult = {
    kind,
    smallTickets: small,
    largeTickets: large,
    seeding: [],
    coldStartMs: [],
    rebuiltDuringRun: false,
    rssIdleMb: {},
    growth: {},
    http: {},
    errors: [],
  };
  const db = await createDatabase(kind, config.postgresUrl);
  log(`${kind}: ${db.label}`);
  let server: BenchServer | null = null;
  const start = async (label: string, profileDir?: string) => {
    const started = await startServer(root, { env: db.env, logFile: path.join(scratch, `server-${kind}-${label}.log`), profileDir });
    result.rebuiltDuringRun ||= started.rebuilt;
    if (started.rebuilt) log(`${kind}: ⚠️ scripts/start.mjs rebuilt the app (sources changed during the run)`);
    log(`${kind}: server up on ${started.url} in ${Math.round(started.coldStartMs)} ms (next-server pid ${started.serverPid})`);
    return started;
  };
  try {
    log(`${kind}: seeding ${small.toLocaleString('en-US')} tickets`);
    const smallSeed = await seed(root, db.env, small);
    result.seeding.push(smallSeed);
    log(`${kind}: ${Math.round(smallSeed.rowsPerSecond)} rows/s`);
    const token = await createAgentToken(root, db.env);
    server = await start('small');
    result.coldStartMs.push(server.coldStartMs);
    const auth: { cookie: string; bearer: string } = { cookie: await signInCookie(server.url), bearer: `Bearer ${token}` };

    log(`${kind}: growth at ${small.toLocaleString('en-US')} tickets`);
    result.growth.small = await growthAt(server, auth, config);
    result.rssIdleMb.small = await idleRss(server, config);
    await stopServer(server);
    server = null;

    log(`${kind}: seeding ${(large - small).toLocaleString('en-US')} more tickets (to ${large.toLocaleString('en-US')})`);
    const largeSeed = await seed(root, db.env, large - small);
    result.seeding.push(largeSeed);
    log(`${kind}: ${Math.round(largeSeed.rowsPerSecond)} rows/s in ${largeSeed.wallSeconds.toFixed(0)} s`);
    server = await start('large');
    result.coldStartMs.push(server.coldStartMs);
    auth.cookie = await signInCookie(server.url);
    log(`${kind}: growth at ${large.toLocaleString('en-US')} tickets`);
    result.growth.large = await growthAt(server, auth, config);
    result.rssIdleMb.large = await idleRss(server, config);

    const first = await firstTicket(server.url, auth);
    const detailId = first.id;
    const requests = httpRequests(auth, detailId, first.requester);
    await checkPage(server.url, requests.listPage.path, auth.cookie, 50);
    await checkPage(server.url, requests.filteredPage.path, auth.cookie, 1);
    await checkPage(server.url, requests.baseline.path, null, 50);
    await checkHome(server.url, auth.cookie);
    for (const name of HTTP_CASES) {
      log(`${kind}: load ${HTTP_LABELS[name]}`);
      const r = await load(server.url, requests[name], {
        connections: config.connections,
        seconds: config.seconds,
        warmupSeconds: config.warmupSeconds,
        serverPid: server.serverPid,
      });
      result.http[name] = r;
      log(`  ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}, errors ${r.errors}`);
      await sleep(config.mode === 'quick' ? 200 : 500);
    }

    log(`${kind}: 500 idle live streams`);
    try {
      result.live = await measureLiveStreams(server.url, auth.cookie, server.serverPid);
      log(`  RSS +${result.live.rssGrowthMb?.toFixed(1)} MB, CPU ${result.live.idleCpuMs} ms over ${result.live.idleSeconds} s`);
    } catch (error) {
      result.errors.push(`live streams: ${errorText(error)}`);
    }

    if (!config.chromiumOn.includes(kind)) {
      log(`${kind}: Chromium skipped (${config.mode} run measures it on ${config.chromiumOn.join(', ')})`);
    } else if (existsSync('/usr/bin/chromium')) {
      log(`${kind}: Chromium`);
      try {
        result.browser = await measureBrowser(server.url, auth.cookie, detailId, config.navigations);
        log(
          `  navigation medians: to detail ${result.browser.navigation.toDetailMedianMs.toFixed(1)} ms, to list ${result.browser.navigation.toListMedianMs.toFixed(1)} ms`,
        );
      } catch (error) {
        result.errors.push(`Chromium: ${errorText(error)}`);
        log(`  Chromium failed: ${errorText(error)}`);
      }
    } else {
      result.errors.push('Chromium: /usr/bin/chromium not found, browser measurements skipped');
    }

    if (config.profile) {
      await stopServer(server);
      server = null;
      result.profiles = await profileSlowest(kind, result, db.env, config, token);
    }
  } catch (error) {
    result.errors.push(errorText(error));
    log(`${kind}: ❗ ${errorText(error)}`);
  } finally {
    if (server) await stopServer(server);
    await db.remove();
  }
  return result;
}

/** The two slowest HTTP cases (lowest req/s, the baseline aside), run again under the CPU profiler. */
async function profileSlowest(
  kind: DatabaseKind,
  result: DatabaseResult,
  env: Readonly<Record<string, string>>,
  config: BenchConfig,
  token: string,
): Promise<Partial<Record<HttpCase, ProfileSummary>>> {
  const slowest = HTTP_CASES.filter((c) => c !== 'baseline' && result.http[c])
    .sort((a, b) => result.http[a]!.requestsPerSecond - result.http[b]!.requestsPerSecond)
    .slice(0, 2);
  const dir = path.join(scratch, `profiles-${kind}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const server = await startServer(root, { env, logFile: path.join(scratch, `server-${kind}-profile.log`), profileDir: dir });
  const profiles: Partial<Record<HttpCase, ProfileSummary>> = {};
  try {
    const auth = { cookie: await signInCookie(server.url), bearer: `Bearer ${token}` };
    const first = await firstTicket(server.url, auth);
    const requests = httpRequests(auth, first.id, first.requester);
    for (const name of slowest) {
      log(`${kind}: profiling ${HTTP_LABELS[name]}`);
      await load(server.url, requests[name], {
        connections: config.connections,
        seconds: config.warmupSeconds + 1,
        warmupSeconds: 0,
        serverPid: server.serverPid,
      });
      const known = new Set(readdirSync(dir));
      toggleProfiler(server.serverPid);
      const r = await load(server.url, requests[name], {
        connections: config.connections,
        seconds: config.seconds,
        warmupSeconds: 0,
        serverPid: server.serverPid,
      });
      toggleProfiler(server.serverPid);
      const file = await waitForProfile(dir, known);
      profiles[name] = summarizeProfile(file, root);
      log(`  ${Math.round(r.requestsPerSecond)} req/s under the profiler; ${file}`);
    }
  } finally {
    await stopServer(server);
  }
  return profiles;
}

function renderProfiles(results: BenchResults): string {
  const out: string[] = [];
  for (const db of Object.values(results.databases)) {
    for (const [name, p] of Object.entries(db?.profiles ?? {})) {
      if (!p) continue;
      out.push(
        '',
        `### CPU profile: ${HTTP_LABELS[name as HttpCase]} on ${db!.kind} (main thread ${(p.busyMs / 1000).toFixed(1)} s busy of ${(p.sampledMs / 1000).toFixed(1)} s; source-mapped)`,
        '',
      );
      out.push('| function | where | self % | on stack % |', '| --- | --- | --- | --- |');
      for (const f of p.functions) out.push(`| \`${f.name}\` | ${f.where} | ${f.selfPercent.toFixed(1)} | ${f.totalPercent.toFixed(1)} |`);
      out.push('', '| app function | where | self % | on stack % |', '| --- | --- | --- | --- |');
      for (const f of p.appFunctions)
        out.push(`| \`${f.name}\` | ${f.where} | ${f.selfPercent.toFixed(1)} | ${f.totalPercent.toFixed(1)} |`);
      out.push('', '| file / package | self % | on stack % |', '| --- | --- | --- |');
      for (const f of p.files) out.push(`| ${f.where} | ${f.selfPercent.toFixed(1)} | ${f.totalPercent.toFixed(1)} |`);
    }
  }
  return out.join('\n');
}

function localDate(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function main(): Promise<number> {
  installSignalHandlers();
  const config = configFromArgs(process.argv.slice(2), process.env);
  mkdirSync(scratch, { recursive: true });
  const results: BenchResults = {
    mode: config.mode,
    startedAt: new Date().toISOString(),
    config,
    machine: { ...machineInfo(root), postgres: config.databases.includes('postgres') ? await postgresVersion(config.postgresUrl) : null },
    build: {},
    databases: {},
  };
  log(
    `${config.mode} run: ${config.databases.join(' + ')}; tickets ${config.smallTickets} → ${JSON.stringify(config.largeTickets)}; load ${config.connections} connections × ${config.seconds} s`,
  );

  if (config.timeNpmCi) {
    log('npm ci --ignore-scripts in a temp dir');
    try {
      results.build.npmCiSeconds = (await timedNpmCi(root)).seconds;
      log(`  ${results.build.npmCiSeconds.toFixed(1)} s`);
    } catch (error) {
      results.build.npmCiSeconds = null;
      log(`  npm ci failed: ${errorText(error)}`);
    }
  } else {
    results.build.npmCiSeconds = null;
  }
  if (config.mode === 'quick' && buildIsCurrent(root)) {
    results.build.skipped = 'the build is current (the quick run does not rebuild; the full run always times next build)';
    log('next build: skipped, the build is current');
  } else {
    log('next build');
    try {
      const built = await timedBuild(root);
      results.build.nextBuildSeconds = built.seconds;
      results.build.fingerprint = built.fingerprint;
      log(`  ${built.seconds.toFixed(1)} s`);
    } catch (error) {
      results.build.error = errorText(error);
      log(`❗ ${errorText(error)}`);
    }
  }

  if (!results.build.error) {
    for (const kind of config.databases) results.databases[kind] = await benchDatabase(kind, config);
  }

  results.finishedAt = new Date().toISOString();
  results.durationSeconds = (performance.now() - began) / 1000;
  (results.machine as Record<string, unknown>).loadAverageAtEnd = os.loadavg();
  const file = path.join(root, 'bench', 'results', `${localDate()}${config.mode === 'quick' ? '-quick' : ''}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${renderReport(results)}\n${renderProfiles(results)}\n\nRaw numbers: ${path.relative(root, file)}\n`);
  const failed = results.build.error || Object.values(results.databases).some((d) => d && d.errors.length > 0);
  return failed ? 1 : 0;
}

main()
  .then(
    (code) => cleanUpEverything().then(() => code),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      return cleanUpEverything().then(() => 1);
    },
  )
  .then((code) => process.exit(code));
