import { run, type Finished } from '../../bench/lib/processes';
import { SOAK_SPEC } from './server';

/**
 * The soak's own account: an administrator who is also an agent (so tickets can be assigned to
 * it) and a customer (so the tickets it files name it as their requester, who must be a customer).
 */
export const SOAK_USER = { email: 'soak@soak.ninefold.test', password: 'soak-password-not-secret' } as const;

/** `npm run ninefold -- <args>` on a database; throws with the output when it fails unless allowed. */
export function ninefold(
  root: string,
  env: Readonly<Record<string, string>>,
  args: readonly string[],
  allowFailure = false,
): Promise<Finished> {
  return run('npm', ['run', '--silent', 'ninefold', '--', ...args], {
    cwd: root,
    env: { ...process.env, ...env, NINEFOLD_SPEC: SOAK_SPEC },
    label: `ninefold ${args.slice(0, 2).join(' ')}`,
    allowFailure,
  });
}

/** Adds a user with the CLI, as an operator would, and returns their personal API token (printed once, last line). */
async function addUser(
  root: string,
  env: Readonly<Record<string, string>>,
  user: { readonly email: string; readonly password: string; readonly name: string; readonly roles: readonly string[] },
): Promise<string> {
  const roles = user.roles.flatMap((role) => ['--role', role]);
  await ninefold(root, env, ['user', 'add', '--email', user.email, '--password', user.password, ...roles, '--name', user.name]);
  const created = await ninefold(root, env, ['token', 'create', '--email', user.email, '--name', 'soak']);
  const token = created.stdout.trim().split('\n').pop()?.trim() ?? '';
  if (!token.startsWith('nf_')) throw new Error(`token create printed no token:\n${created.stdout}\n${created.stderr}`);
  return token;
}

/**
 * Prepares a fresh database with the CLI, as an operator would: the schema, the soak's account,
 * optionally demo data, and the account's personal API token.
 */
export async function prepareDatabase(
  root: string,
  env: Readonly<Record<string, string>>,
  options: { seed?: number } = {},
): Promise<string> {
  if (options.seed) await ninefold(root, env, ['seed', '--count', String(options.seed)]);
  return addUser(root, env, { ...SOAK_USER, name: 'Soak', roles: ['admin', 'agent', 'customer'] });
}

/** A second agent, whom the soak's tickets are assigned to: each assignment tells them (in-app). */
export const SOAK_COLLEAGUE = { email: 'colleague@soak.ninefold.test', password: 'colleague-password-not-secret' } as const;

/** Adds the colleague and returns their personal API token. */
export function addColleague(root: string, env: Readonly<Record<string, string>>): Promise<string> {
  return addUser(root, env, { ...SOAK_COLLEAGUE, name: 'Colleague', roles: ['agent'] });
}
