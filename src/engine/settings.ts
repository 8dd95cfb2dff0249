import path from 'node:path';
import { DEFAULT_SCHEDULER_SECONDS } from './spec/auto';

/** Everything the engine reads from the environment, read in one place. */
export interface Settings {
  readonly root: string;
  /** Absolute path of the spec file (NINEFOLD_SPEC; default: the helpdesk example). */
  readonly specPath: string;
  readonly databaseUrl?: string;
  /** Absolute path of the embedded database's directory (DATA_DIR; default ./.data). */
  readonly dataDir: string;
  readonly adminEmail?: string;
  readonly adminPassword?: string;
  /** How often the scheduler looks for due automatic transitions (NINEFOLD_SCHEDULER_SECONDS; default 30). */
  readonly schedulerSeconds?: number;
  /** The application's public address, for links in e-mails (NINEFOLD_PUBLIC_URL; e.g. https://desk.example.com). */
  readonly publicUrl?: string;
  /** Where files' bytes are kept when not in the database (NINEFOLD_FILES_DIR; default: in PostgreSQL). */
  readonly filesDir?: string;
}

export const DEFAULT_SPEC = 'examples/helpdesk/ninefold.spec.ts';

export function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  const root = env.NINEFOLD_ROOT ?? process.cwd();
  return {
    root,
    specPath: path.resolve(root, env.NINEFOLD_SPEC || DEFAULT_SPEC),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(root, env.DATA_DIR || '.data'),
    adminEmail: env.NINEFOLD_ADMIN_EMAIL || undefined,
    adminPassword: env.NINEFOLD_ADMIN_PASSWORD || undefined,
    schedulerSeconds: schedulerSeconds(env),
    publicUrl: env.NINEFOLD_PUBLIC_URL || undefined,
    ...(env.NINEFOLD_FILES_DIR ? { filesDir: path.resolve(root, env.NINEFOLD_FILES_DIR) } : {}),
  };
}

/** NINEFOLD_SCHEDULER_SECONDS when it is a positive number, else the default. */
function schedulerSeconds(env: NodeJS.ProcessEnv): number {
  const value = Number(env.NINEFOLD_SCHEDULER_SECONDS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_SCHEDULER_SECONDS;
}
