import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseKind } from './config';
import { onCleanup } from './processes';

/** Where one benchmark's data lives: the environment for the CLI and the server, and how to remove it. */
export interface BenchDatabase {
  readonly kind: DatabaseKind;
  readonly env: Readonly<Record<string, string>>;
  readonly label: string;
  remove(): Promise<void>;
}

export async function createDatabase(kind: DatabaseKind, postgresUrl: string): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'nf-bench-pglite-'));
    const remove = async () => rmSync(dir, { recursive: true, force: true });
    const forget = onCleanup(remove);
    return {
      kind,
      label: `PGlite in ${dir}`,
      env: { DATABASE_URL: '', DATA_DIR: dir },
      remove: async () => {
        await remove();
        forget();
      },
    };
  }
  const name = `nf_bench_${process.pid}_${Date.now().toString(36)}`;
  await admin(postgresUrl, `CREATE DATABASE ${name}`);
  const remove = () => admin(postgresUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  const forget = onCleanup(remove);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    label: `PostgreSQL database ${name}`,
    env: { DATABASE_URL: url.toString(), DATA_DIR: '' },
    remove: async () => {
      await remove();
      forget();
    },
  };
}

async function admin(postgresUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The server version, for the results file. */
export async function postgresVersion(postgresUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: postgresUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
