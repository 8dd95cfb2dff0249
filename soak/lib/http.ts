import http from 'node:http';

/** An HTTP answer as the soak reads it: the body as text, and how long the request took. */
export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly ms: number;
}

/** No HTTP answer at all (refused, reset, timed out): `code` is the socket error's code. */
export class NoAnswer extends Error {
  constructor(
    readonly code: string,
    readonly ms: number,
  ) {
    super(`no answer: ${code}`);
  }
}

/**
 * One keep-alive agent for the whole soak: node:http rather than fetch, because 100 clients on a
 * 2-core machine shared with the server must cost the harness as little CPU as possible.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

export interface Call {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as they are, with their content type (a multipart upload). */
  readonly bytes?: { readonly body: Buffer; readonly contentType: string };
  readonly timeoutMs?: number;
}

export function call(url: string, options: Call = {}): Promise<Answer> {
  const started = performance.now();
  const body = options.bytes?.body ?? (options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json)));
  const headers: Record<string, string> = { ...options.headers };
  if (body) {
    headers['content-type'] = options.bytes?.contentType ?? 'application/json';
    headers['content-length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
      res.on('error', (error: NodeJS.ErrnoException) => reject(new NoAnswer(error.code ?? error.message, performance.now() - started)));
    });
    req.setTimeout(options.timeoutMs ?? 60_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => reject(new NoAnswer(error.code ?? error.message, performance.now() - started)));
    req.end(body);
  });
}

/** The catalogue code of a problem+json answer, or null. */
export function problemCode(answer: Answer): string | null {
  try {
    const parsed = JSON.parse(answer.body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : null;
  } catch {
    return null;
  }
}

export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

/** Polls GET /api/health until it answers 200; the milliseconds it took, or null past the deadline. */
export async function waitForHealth(baseUrl: string, timeoutMs: number, stillRunning: () => boolean = () => true): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (!stillRunning()) return null;
    try {
      const answer = await call(`${baseUrl}/api/health`, { timeoutMs: 5_000 });
      if (answer.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}
