import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type Result = 'PASS' | 'FAIL' | 'not available' | 'skipped';

/** One line of the soak's table. */
export interface Row {
  readonly scenario: string;
  readonly database: string;
  /** What was tried, in numbers ("20 kills, 4,213 acknowledged writes"). */
  readonly tried: string;
  /** Acknowledged writes (or exported rows) not found afterwards: must be 0. Null when not measured. */
  readonly lost: number | null;
  readonly result: Result;
  /** p99, RSS, recovery time... */
  readonly figures: string;
  /** Why it failed, or what was not available: each problem in a sentence. */
  readonly problems: readonly string[];
}

export function row(fields: Omit<Row, 'result' | 'problems'> & { problems?: readonly string[]; result?: Result }): Row {
  const problems = fields.problems ?? [];
  return { ...fields, problems, result: fields.result ?? (problems.length || (fields.lost ?? 0) > 0 ? 'FAIL' : 'PASS') };
}

export const fmt = (n: number): string => n.toLocaleString('en-US');
export const ms = (n: number | null): string => (n === null ? 'n/a' : n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);

/** The Markdown table, then each row's problems under it. */
export function renderTable(rows: readonly Row[]): string {
  const head = ['scenario', 'database', 'what was tried', 'lost', 'result', 'figures'];
  const cells = rows.map((r) => [r.scenario, r.database, r.tried, r.lost === null ? '-' : fmt(r.lost), r.result, r.figures]);
  const escape = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...cells.map((c) => `| ${c.map(escape).join(' | ')} |`),
  ];
  const notes = rows.flatMap((r) => r.problems.map((p) => `- ${r.scenario} (${r.database}): ${p}`));
  return [...lines, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

/** soak/results/<date>.json (<date>-quick.json for quick runs); returns the path. */
export function writeResults(root: string, quick: boolean, document: Record<string, unknown>): string {
  const dir = path.join(root, 'soak', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().slice(0, 10)}${quick ? '-quick' : ''}.json`);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  return file;
}
