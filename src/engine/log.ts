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

type TextSink = (text: string) => void;
const stderrText: TextSink = (text) => {
  process.stderr.write(`${text}\n`);
};
let textSink: TextSink = stderrText;

export function logLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  sink({ time: new Date().toISOString(), level, msg, ...fields });
}

/**
 * Text for the person reading the terminal, written as it is between the JSON lines: only what
 * they must read and type by hand, which a long JSON line buries (the setup code, after its log
 * line). Nothing else secret ever goes here.
 */
export function printForOperator(text: string): void {
  textSink(text);
}

/**
 * Tests: collect the lines written (and the text printed for the operator) while `run` runs
 * instead of printing them (then restores the previous sinks). Not for concurrent use across tests of one process.
 */
export async function captureLog<T>(run: () => Promise<T>): Promise<{ result: T; lines: LogEntry[]; printed: string[] }> {
  const lines: LogEntry[] = [];
  const printed: string[] = [];
  const previous = { sink, textSink };
  sink = (entry) => void lines.push(entry);
  textSink = (text) => void printed.push(text);
  try {
    return { result: await run(), lines, printed };
  } finally {
    ({ sink, textSink } = previous);
  }
}
