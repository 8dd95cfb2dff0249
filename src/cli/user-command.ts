import { parseArgs } from 'node:util';
import type { Engine } from '@/engine/engine';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { normalizeEmail } from '@/engine/identity/identity';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

export const USER_USAGE =
  'Usage: user add --email E --password P --role R [--role R2] [--name N] [--field name=value ...] | user set --email E --field name=value [--field ...] | user list | user disable --email E | user enable --email E';

/** Where the command writes: the console, or a test's lists. */
export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

/**
 * `--field team=3` (repeatable; `--field team=` clears) into values by field name. Names the spec
 * does not know and bad values are refused by identity, with the field's own message.
 */
export function parseFieldOptions(options: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const option of options) {
    const equals = option.indexOf('=');
    if (equals <= 0) {
      throw new NinefoldError(
        'VALIDATION_FAILED',
        `--field takes name=value (e.g. --field team=3, or --field team= to clear it), got "${option}".`,
      );
    }
    const name = option.slice(0, equals).trim();
    if (Object.hasOwn(values, name)) throw new NinefoldError('VALIDATION_FAILED', `--field ${name} is given twice.`);
    values[name] = option.slice(equals + 1);
  }
  return values;
}

/** A user's fields as `user list` prints them: "team=3 level=senior" (unset ones left out). */
function fieldsText(fields: Readonly<Record<string, unknown>>): string {
  return Object.entries(fields)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
}

/**
 * `npm run ninefold -- user ...`. Returns the exit code: 2 for a usage mistake, 1 for a refusal
 * (a thrown NinefoldError, whose field messages the caller prints), 0 when done.
 */
export async function userCommand(
  argv: readonly string[],
  openEngine: () => Promise<Engine>,
  out: CommandOutput = console,
): Promise<number> {
  const [action, ...rest] = argv;
  let values: { email?: string; password?: string; name?: string; role?: string[]; field?: string[] };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string', multiple: true },
        field: { type: 'string', multiple: true },
      },
    }));
  } catch (error) {
    out.error(`${error instanceof Error ? error.message : String(error)}\n${USER_USAGE}`);
    return 2;
  }
  const needsEmail = ['add', 'set', 'disable', 'enable'].includes(action ?? '');
  const fieldsAllowed = action === 'add' || action === 'set';
  if (
    !['add', 'set', 'list', 'disable', 'enable'].includes(action ?? '') ||
    (needsEmail && !values.email) ||
    (action === 'add' && !values.password) ||
    (action === 'set' && !values.field?.length) ||
    (!fieldsAllowed && values.field?.length)
  ) {
    out.error(USER_USAGE);
    return 2;
  }
  const fields = parseFieldOptions(values.field ?? []);
  const engine = await openEngine();
  try {
    if (action === 'add') {
      const user = await engine.identity.createUser(SYSTEM_ACTOR, {
        email: values.email!,
        password: values.password!,
        name: values.name,
        roles: values.role ?? [],
        fields,
      });
      out.log(`Created ${user.email} (${user.name}) with roles: ${user.roles.join(', ') || 'none'}.`);
      return 0;
    }
    if (action === 'list') {
      const users = await engine.identity.listUsers(SYSTEM_ACTOR);
      if (users.length === 0) out.log('No users yet.');
      for (const u of users)
        out.log(
          [u.email, u.name, u.roles.join(',') || '-', u.disabled ? 'disabled' : 'active', fieldsText(u.fields)]
            .filter((s, i) => i < 4 || s !== '')
            .join('\t'),
        );
      return 0;
    }
    const wanted = normalizeEmail(values.email!);
    const userId = (await engine.identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === wanted)?.id ?? null;
    if (userId === null) {
      out.error(`No user with the email ${values.email}.`);
      return 1;
    }
    if (action === 'set') {
      const user = await engine.identity.setUserFields(SYSTEM_ACTOR, userId, fields);
      out.log(`Saved the fields of ${user.email}: ${fieldsText(user.fields) || 'none set'}.`);
    } else if (action === 'disable') {
      await engine.identity.disableUser(SYSTEM_ACTOR, userId);
      out.log(`Disabled ${values.email}: their sessions ended and their API tokens were revoked.`);
    } else {
      await engine.identity.enableUser(SYSTEM_ACTOR, userId);
      out.log(`Enabled ${values.email}; they can sign in again (revoked API tokens stay revoked).`);
    }
    return 0;
  } finally {
    await engine.close();
  }
}
