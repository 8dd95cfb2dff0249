/**
 * One JSON object per line on stderr: easy to grep, easy to ship. Never pass secrets or record
 * values here (passwords, tokens, cookies, field contents): names and ids only.
 */

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogEntry {
  readonly time: string;
  readonly level: LogLevel;
  readonly msg: string;
  readonly [field: string]: unknown;
}

type LogSink = (entry: LogEntry) => void;

const stderrSink: LogSink = (entry) => {
  process.stderr.write(`${JSON.stringify(entry)}\n`);
};

let sink: LogSink = stderrSink;

export function logLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  sink({ time: new Date().toISOString(), level, msg, ...fields });
}

/**
 * Tests: collect the lines written while `run` runs instead of printing them (then restores the
 * previous sink). Not for concurrent use across tests of one process.
 */
export async function captureLog<T>(run: () => Promise<T>): Promise<{ result: T; lines: LogEntry[] }> {
  const lines: LogEntry[] = [];
  const previous = sink;
  sink = (entry) => void lines.push(entry);
  try {
    return { result: await run(), lines };
  } finally {
    sink = previous;
  }
}
