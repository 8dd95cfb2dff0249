import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { AGENT } from './cli';
import { rssMb } from './processes';

export interface Auth {
  /** `nf_session=...` for page requests. */
  readonly cookie: string;
  /** `Bearer nf_...` for API requests. */
  readonly bearer: string;
}

/** Signs in as the demo agent through the JSON door and returns the session cookie. */
export async function signInCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: AGENT.email, password: AGENT.password }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`Sign-in answered ${response.status}: ${text}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('nf_session='));
  if (!cookie) throw new Error('Sign-in set no nf_session cookie');
  return cookie;
}

export interface Request {
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly totalRequests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly seconds: number;
  /** VmRSS of the server sampled during the run (MB). */
  readonly rssMaxMb: number | null;
  readonly rssMeanMb: number | null;
  /** 1-minute load average of the machine at the end of the run (the harness's own load included). */
  readonly loadAverage: number;
  /** Mean size of a response as sent (headers and body), in bytes. */
  readonly bytesPerResponse: number;
}

/** autocannon against one request: a warm-up run (not kept), then the measured run. */
export async function load(
  baseUrl: string,
  request: Request,
  options: { connections: number; seconds: number; warmupSeconds: number; serverPid: number },
): Promise<LoadResult> {
  const opts = {
    url: `${baseUrl}${request.path}`,
    connections: options.connections,
    method: request.method ?? 'GET',
    headers: { ...request.headers },
    body: request.body,
    timeout: 30,
  };
  if (options.warmupSeconds > 0) await autocannon({ ...opts, duration: options.warmupSeconds });
  const rss: number[] = [];
  const sampler = setInterval(() => {
    const mb = rssMb(options.serverPid);
    if (mb !== null) rss.push(mb);
  }, 250);
  try {
    const result = await autocannon({ ...opts, duration: options.seconds });
    const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, Number(s.count)]));
    return {
      requestsPerSecond: result.requests.average,
      totalRequests: result.requests.total,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      meanMs: result.latency.average,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes,
      seconds: result.duration,
      rssMaxMb: rss.length ? Math.max(...rss) : null,
      rssMeanMb: rss.length ? rss.reduce((a, b) => a + b, 0) / rss.length : null,
      // os.loadavg() is always three numbers: the first is the last minute's.
      loadAverage: loadavg()[0]!,
      bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    };
  } finally {
    clearInterval(sampler);
  }
}

export interface SequentialResult {
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly meanMs: number;
  readonly samples: number;
  readonly failures: number;
}

/** One request after another (no concurrency): the latency of the query itself, not of a queue. */
export async function sequential(baseUrl: string, request: Request, samples: number, warmup: number): Promise<SequentialResult> {
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < warmup + samples; i++) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
    });
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (i < warmup) continue;
    if (response.status < 200 || response.status > 299) failures++;
    times.push(ms);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50Ms: median(sorted),
    p90Ms: percentileOfSorted(sorted, 0.9),
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    samples: times.length,
    failures,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid];
  // No values, no median (NaN, as the arithmetic on nothing gave before).
  if (upper === undefined) return NaN;
  // An even count of at least two: the value below the middle is there.
  return sorted.length % 2 ? upper : (sorted[mid - 1]! + upper) / 2;
}

/** The value at a fraction of the sorted values (0.9: the 90th percentile); NaN for none. */
function percentileOfSorted(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

/** GET a JSON document with the bearer token; throws on anything but 200. */
export async function getJson<T>(baseUrl: string, path: string, auth: Auth): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: auth.bearer } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/**
 * A page must really show what it is measured for: 200, no "cannot be shown" alert, and rows.
 * Returns the number of table rows in the HTML.
 */
export async function checkPage(baseUrl: string, path: string, cookie: string | null, minRows: number): Promise<number> {
  const response = await fetch(`${baseUrl}${path}`, { headers: cookie ? { cookie } : {} });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  if (html.includes('This list cannot be shown')) throw new Error(`GET ${path} shows "This list cannot be shown"`);
  const body = /<tbody[^>]*>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  const rows = (body.match(/<tr[\s>]/g) ?? []).length;
  if (rows < minRows) throw new Error(`GET ${path} shows ${rows} rows, expected at least ${minRows}`);
  return rows;
}

/** The home answers with its widgets: the counts per state and the chart's 30 days of numbers. */
export async function checkHome(baseUrl: string, cookie: string): Promise<void> {
  const response = await fetch(`${baseUrl}/`, { headers: { cookie } });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`GET / answered ${response.status}`);
  for (const title of ['Tickets by state', 'Needs my action', 'Created and resolved per day']) {
    if (!html.includes(title)) throw new Error(`GET / does not show "${title}"`);
  }
}
