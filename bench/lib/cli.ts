import { run } from './processes';

export const AGENT = { email: 'agent1@demo.ninefold.test', password: 'demo-password' } as const;

export interface SeedResult {
  /** Tickets asked for (`seed --count`). */
  readonly count: number;
  /** Rows the CLI says it wrote, per entity (the helpdesk adds comments and organizations). */
  readonly rows: Readonly<Record<string, number>>;
  readonly totalRows: number;
  /** Wall time of the whole command (process start, schema sync, inserts). */
  readonly wallSeconds: number;
  /** The seeding time the CLI reports itself (inserts only). */
  readonly cliSeconds: number | null;
  readonly rowsPerSecond: number;
}

function ninefold(root: string, env: Readonly<Record<string, string>>, args: readonly string[], label: string) {
  return run('npm', ['run', '--silent', 'ninefold', '--', ...args], { cwd: root, env: { ...process.env, ...env }, label });
}

/** `npm run ninefold -- seed --count N`, timed. */
export async function seed(root: string, env: Readonly<Record<string, string>>, count: number): Promise<SeedResult> {
  const result = await ninefold(root, env, ['seed', '--count', String(count)], `seed --count ${count}`);
  const rows: Record<string, number> = {};
  for (const [, table, tableRows] of result.stdout.matchAll(/^\s+(\w+): (\d+) rows$/gm)) rows[table!] = Number(tableRows);
  const cli = /Seeded (\d+) rows in ([\d.]+) s/.exec(result.stdout);
  const totalRows = Object.values(rows).reduce((a, b) => a + b, 0) || Number(cli?.[1] ?? count);
  const wallSeconds = result.ms / 1000;
  return { count, rows, totalRows, wallSeconds, cliSeconds: cli ? Number(cli[2]) : null, rowsPerSecond: totalRows / wallSeconds };
}

/** `npm run ninefold -- token create`: a personal API token of the demo agent. */
export async function createAgentToken(root: string, env: Readonly<Record<string, string>>): Promise<string> {
  const result = await ninefold(root, env, ['token', 'create', '--email', AGENT.email, '--name', 'bench'], 'token create');
  const token = result.stdout.trim().split('\n').pop()?.trim() ?? '';
  if (!token.startsWith('nf_')) throw new Error(`token create printed no token:\n${result.stdout}\n${result.stderr}`);
  return token;
}
