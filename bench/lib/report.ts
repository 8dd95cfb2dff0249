import type { DatabaseKind } from './config';
import type { LoadResult } from './http';
import { liveRows } from './live';
import {
  GROWTH_CASES,
  GROWTH_LABELS,
  HTTP_CASES,
  HTTP_LABELS,
  PAGE_GROWTH_CASES,
  PAGE_GROWTH_LABELS,
  type BenchResults,
  type DatabaseResult,
} from './results';

/** The budgets of issue 6 (this 2-core machine). */
export const BUDGETS = {
  listPageVsBaseline: 0.9,
  apiListRps: 1000,
  growthRatio: 1.3,
  /** The home (every widget) at the large size on PostgreSQL, p50 of sequential requests. */
  homeP50Ms: 100,
  jsVsBaseline: 1.2,
  navigationMs: 100,
  coldStartMs: 1000,
  rssMb: { pglite: 400, postgres: 250 } as Record<DatabaseKind, number>,
} as const;

const DB_LABEL: Record<DatabaseKind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

const ok = (pass: boolean | null) => (pass === null ? '—' : pass ? '✅' : '❌');
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : int(n));
const ratio = (n: number) => `${n.toFixed(2)}x`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const tickets = (n: number) =>
  n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : int(n);

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function loadOk(r: LoadResult): boolean {
  return r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
}

function nonOk(r: LoadResult): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad === 0) return '0';
  const codes = Object.entries(r.statusCodes)
    .filter(([c]) => !c.startsWith('2'))
    .map(([c, n]) => `${n}×${c}`);
  const extra = [...codes, r.errors ? `${r.errors} errors` : '', r.timeouts ? `${r.timeouts} timeouts` : ''].filter(Boolean);
  return `**${int(bad)}** ❗ (${extra.join(', ')})`;
}

export function renderReport(results: BenchResults): string {
  const dbs = Object.values(results.databases).filter((d): d is DatabaseResult => d !== undefined);
  const m = results.machine as { cpus: number; cpuModel: string; memoryMb: number; node: string; loadAverageAtStart: number[] };
  const out: string[] = [];
  out.push(`## Ninefold bench — ${results.mode} run, ${results.startedAt.slice(0, 10)}`);
  out.push('');
  out.push(
    `${m.cpus} CPUs (${m.cpuModel}), ${int(m.memoryMb)} MB, Node ${m.node}; spec \`bench/specs/helpdesk-unthrottled.spec.ts\`; ` +
      `autocannon ${results.config.connections} connections × ${results.config.seconds} s per case after a ${results.config.warmupSeconds} s warm-up, 127.0.0.1. ` +
      `Load average at the start: ${m.loadAverageAtStart.map((n) => n.toFixed(2)).join(', ')} (anything else running on the machine lowers the absolute numbers; ratios suffer less).`,
  );

  // Load
  const loadRows: string[][] = [];
  for (const db of dbs) {
    for (const name of HTTP_CASES) {
      const r = db.http[name];
      if (!r) continue;
      const apiBudget = name === 'apiList';
      const pass = loadOk(r) && (!apiBudget || r.requestsPerSecond >= BUDGETS.apiListRps);
      loadRows.push([
        HTTP_LABELS[name],
        `${DB_LABEL[db.kind]} @${tickets(db.largeTickets)}`,
        int(r.requestsPerSecond),
        ms(r.p50Ms),
        ms(r.p99Ms),
        nonOk(r),
        r.bytesPerResponse ? (r.bytesPerResponse / 1024).toFixed(1) : '—',
        r.loadAverage === undefined ? '—' : r.loadAverage.toFixed(1),
        apiBudget ? `≥ ${int(BUDGETS.apiListRps)} req/s, 0 non-2xx` : '0 non-2xx',
        ok(pass),
      ]);
    }
  }
  out.push(
    '',
    '### Under load',
    '',
    table(['case', 'database @tickets', 'req/s (mean)', 'p50 ms', 'p99 ms', 'non-2xx', 'KB/response', 'load avg', 'budget', ''], loadRows),
  );

  const ratioRows: string[][] = [];
  for (const db of dbs) {
    const list = db.http.listPage;
    const base = db.http.baseline;
    if (list && base) {
      const r = list.requestsPerSecond / base.requestsPerSecond;
      ratioRows.push([
        `list page ÷ baseline (req/s: ${int(list.requestsPerSecond)} ÷ ${int(base.requestsPerSecond)})`,
        DB_LABEL[db.kind],
        ratio(r),
        `≥ ${BUDGETS.listPageVsBaseline}x`,
        ok(r >= BUDGETS.listPageVsBaseline),
      ]);
    }
  }
  if (ratioRows.length) out.push('', table(['ratio', 'database', 'value', 'budget', ''], ratioRows));

  // Growth
  const growthRows: string[][] = [];
  for (const db of dbs) {
    const small = db.growth.small;
    const large = db.growth.large;
    if (!small || !large) continue;
    for (const door of ['page', 'api'] as const) {
      for (const name of GROWTH_CASES) {
        const a = small[`${door}:${name}`];
        const b = large[`${door}:${name}`];
        const r = b.p50Ms / a.p50Ms;
        const failed = a.failures + b.failures;
        growthRows.push([
          `${door === 'page' ? 'page' : 'API'}: ${GROWTH_LABELS[name]}`,
          DB_LABEL[db.kind],
          ms(a.p50Ms),
          ms(b.p50Ms),
          ratio(r) + (failed ? ` (**${failed} non-2xx** ❗)` : ''),
          `≤ ${BUDGETS.growthRatio}x`,
          ok(r <= BUDGETS.growthRatio && failed === 0),
        ]);
      }
    }
  }
  for (const db of dbs) {
    const small = db.growth.small;
    const large = db.growth.large;
    if (!small || !large) continue;
    for (const name of PAGE_GROWTH_CASES) {
      const a = small[`page:${name}`];
      const b = large[`page:${name}`];
      if (!a || !b) continue;
      const r = b.p50Ms / a.p50Ms;
      const failed = a.failures + b.failures;
      // The home's budget is its time at the large size on PostgreSQL; elsewhere, that it does not grow.
      const timed = db.kind === 'postgres';
      const pass = failed === 0 && r <= BUDGETS.growthRatio && (!timed || b.p50Ms < BUDGETS.homeP50Ms);
      growthRows.push([
        `page: ${PAGE_GROWTH_LABELS[name]}`,
        DB_LABEL[db.kind],
        ms(a.p50Ms),
        ms(b.p50Ms),
        ratio(r) + (failed ? ` (**${failed} non-2xx** ❗)` : ''),
        `≤ ${BUDGETS.growthRatio}x${timed ? `, p50 < ${BUDGETS.homeP50Ms} ms` : ''}`,
        ok(pass),
      ]);
    }
  }
  if (growthRows.length) {
    const sizes = dbs.map((d) => `${DB_LABEL[d.kind]} ${tickets(d.smallTickets)} → ${tickets(d.largeTickets)}`).join(', ');
    out.push(
      '',
      `### Growth (p50 of ${results.config.growthSamples} sequential requests; ${sizes})`,
      '',
      table(['case', 'database', 'p50 small ms', 'p50 large ms', 'ratio', 'budget', ''], growthRows),
    );
  }

  // Browser
  const browserRows: string[][] = [];
  for (const db of dbs) {
    const b = db.browser;
    if (!b) continue;
    const { list, detail, baseline } = b.js;
    const by = [list, detail, baseline].every((s) => s.gzipBy === 'server')
      ? 'content-encoding gzip from the server'
      : 'gzipped by the harness where the server did not';
    browserRows.push([`gzipped JS, list page (${list.scripts} scripts; ${by})`, DB_LABEL[db.kind], kb(list.gzipBytes), '—', '—']);
    browserRows.push([`gzipped JS, detail page (${detail.scripts} scripts)`, DB_LABEL[db.kind], kb(detail.gzipBytes), '—', '—']);
    browserRows.push([`gzipped JS, baseline page (${baseline.scripts} scripts)`, DB_LABEL[db.kind], kb(baseline.gzipBytes), '—', '—']);
    const rl = list.gzipBytes / baseline.gzipBytes;
    const rd = detail.gzipBytes / baseline.gzipBytes;
    browserRows.push([
      'gzipped JS, list ÷ baseline',
      DB_LABEL[db.kind],
      ratio(rl),
      `≤ ${BUDGETS.jsVsBaseline}x`,
      ok(rl <= BUDGETS.jsVsBaseline),
    ]);
    browserRows.push(['gzipped JS, detail ÷ baseline', DB_LABEL[db.kind], ratio(rd), '—', '—']);
    const n = b.navigation.toDetailMs.length;
    const reloads = b.navigation.fullReloads ? ` (**${b.navigation.fullReloads} full reloads** ❗)` : '';
    browserRows.push([
      `client-side navigation list → detail, click to painted (median of ${n})`,
      DB_LABEL[db.kind],
      `${ms(b.navigation.toDetailMedianMs)} ms${reloads}`,
      `< ${BUDGETS.navigationMs} ms`,
      ok(b.navigation.toDetailMedianMs < BUDGETS.navigationMs && !b.navigation.fullReloads),
    ]);
    browserRows.push([
      `client-side navigation detail → list (median of ${n})`,
      DB_LABEL[db.kind],
      `${ms(b.navigation.toListMedianMs)} ms`,
      `< ${BUDGETS.navigationMs} ms`,
      ok(b.navigation.toListMedianMs < BUDGETS.navigationMs && !b.navigation.fullReloads),
    ]);
  }
  if (browserRows.length)
    out.push(
      '',
      `### In Chromium (at the large size${results.mode === 'quick' ? '; the quick run measures it on the first database only' : ''})`,
      '',
      table(['measurement', 'database', 'value', 'budget', ''], browserRows),
    );

  // Start and memory
  const startRows: string[][] = [];
  for (const db of dbs) {
    const sizes = [db.smallTickets, db.largeTickets];
    // One cold start per size: the small run's, then the large one's.
    db.coldStartMs.forEach((t, i) => {
      startRows.push([
        `cold start (\`node scripts/start.mjs\`, built) to first 200 of /api/health, ${tickets(sizes[i]!)} tickets${db.rebuiltDuringRun ? ' (⚠️ rebuilt)' : ''}`,
        DB_LABEL[db.kind],
        `${int(t)} ms`,
        `< ${int(BUDGETS.coldStartMs)} ms`,
        ok(t < BUDGETS.coldStartMs),
      ]);
    });
    const limit = BUDGETS.rssMb[db.kind];
    const rss = (label: string, v: number | null | undefined) => {
      if (v === null || v === undefined) return;
      startRows.push([label, DB_LABEL[db.kind], `${int(v)} MB`, `< ${limit} MB`, ok(v < limit)]);
    };
    rss(`RSS of next-server, idle, ${tickets(db.smallTickets)} tickets`, db.rssIdleMb.small);
    rss(`RSS of next-server, idle after seeding to ${tickets(db.largeTickets)}`, db.rssIdleMb.large);
    rss(`RSS of next-server, max during the list-page load test (${tickets(db.largeTickets)})`, db.http.listPage?.rssMaxMb);
    const peak = Math.max(0, ...Object.values(db.http).map((r) => r?.rssMaxMb ?? 0));
    if (peak) rss(`RSS of next-server, max during any load test`, peak);
    for (const row of db.live ? liveRows(db.live) : [])
      startRows.push([row.measurement, DB_LABEL[db.kind], row.value, row.budget, ok(row.pass)]);
  }
  if (startRows.length) out.push('', '### Start and memory', '', table(['measurement', 'database', 'value', 'budget', ''], startRows));

  // Seeding and build
  const setupRows: string[][] = [];
  for (const db of dbs) {
    for (const s of db.seeding) {
      const detail = Object.entries(s.rows)
        .map(([e, n]) => `${int(n)} ${e}`)
        .join(', ');
      setupRows.push([
        `seed --count ${int(s.count)} (${detail})`,
        DB_LABEL[db.kind],
        `${int(s.rowsPerSecond)} rows/s (${int(s.totalRows)} rows in ${s.wallSeconds.toFixed(1)} s)`,
        '—',
        '—',
      ]);
    }
  }
  if (results.build.nextBuildSeconds !== undefined)
    setupRows.push(['`next build`', '—', `${results.build.nextBuildSeconds.toFixed(1)} s`, '—', '—']);
  else if (results.build.skipped) setupRows.push(['`next build`', '—', `not run: ${results.build.skipped}`, '—', '—']);
  setupRows.push([
    '`npm ci --ignore-scripts` (temp dir, npm cache as found)',
    '—',
    results.build.npmCiSeconds == null ? 'skipped (quick run)' : `${results.build.npmCiSeconds.toFixed(1)} s`,
    '—',
    '—',
  ]);
  if (results.build.npmCiSeconds != null && results.build.nextBuildSeconds !== undefined) {
    setupRows.push([
      '`npm ci` + `next build`',
      '—',
      `${(results.build.npmCiSeconds + results.build.nextBuildSeconds).toFixed(1)} s`,
      '—',
      '—',
    ]);
  }
  out.push('', '### Seeding and build', '', table(['measurement', 'database', 'value', 'budget', ''], setupRows));

  const errors = dbs.flatMap((d) => d.errors.map((e) => `- ${DB_LABEL[d.kind]}: ${e.split('\n')[0]}`));
  if (results.build.error) errors.unshift(`- build: ${results.build.error.split('\n')[0]}`);
  if (errors.length) out.push('', '### ❗ Errors', '', ...errors);

  const verdicts = out.join('\n').match(/✅|❌/g) ?? [];
  const failed = verdicts.filter((v) => v === '❌').length;
  out.push(
    '',
    `**${verdicts.length - failed} of ${verdicts.length} budgets met${failed ? `; ${failed} not met` : ''}.** Run took ${Math.round(results.durationSeconds ?? 0)} s.`,
  );
  return out.join('\n');
}
