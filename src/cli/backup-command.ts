import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { access, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import { BackupRefused } from '@/engine/backup/backup-refused';
import { openBackupSource } from '@/engine/backup/backup-source';
import { openEngine } from '@/engine/open-engine';
import type { Settings } from '@/engine/settings';

/*
 * `export` and `import <backup.jsonl>`: the whole database as JSON lines and back
 * (src/engine/backup). Administrators' commands: they copy every row as it is, below ops.
 */

export const EXPORT_USAGE = 'Usage: export [--out <backup.jsonl>]   (without --out, the backup goes to standard output)';
export const BACKUP_IMPORT_USAGE = 'Usage: import <backup.jsonl>';

/** Lines are written in chunks of about this size, waiting for the stream to drain between them. */
const CHUNK_BYTES = 1 << 20;

function progressBar(): SingleBar {
  return new SingleBar(
    { format: '{table} [{bar}] {percentage}% | {value}/{total} rows | {eta}s left', stream: process.stderr },
    Presets.shades_classic,
  );
}

async function writeChunk(stream: Writable, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

export async function exportCommand(argv: string[], settings: Settings): Promise<number> {
  let out: string | undefined;
  try {
    ({
      values: { out },
    } = parseArgs({ args: argv, options: { out: { type: 'string' } } }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${EXPORT_USAGE}`);
    return 2;
  }
  if (!settings.databaseUrl && !existsSync(settings.dataDir)) {
    console.error(`There is no database in ${settings.dataDir} (DATA_DIR) to export.`);
    return 1;
  }
  const source = await openBackupSource({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  // Without --out, standard output carries the backup and every message goes to standard error.
  const say = out ? console.log : console.error;
  const partial = out ? `${out}.partial` : null;
  const bar = progressBar();
  let barStarted = false;
  try {
    const { meta } = source;
    if (!meta) {
      console.error(`The ${source.kind} database has no Ninefold schema: nothing to export.`);
      return 1;
    }
    const stream: Writable = partial ? createWriteStream(partial, { mode: 0o600 }) : process.stdout;
    const started = performance.now();
    let rows = 0;
    let chunk = '';
    for await (const line of source.lines({
      onProgress: (p) => {
        if (!barStarted) {
          bar.start(p.allTotal, p.allDone, { table: p.table });
          barStarted = true;
        } else bar.update(p.allDone, { table: p.table });
        rows = p.allDone;
      },
    })) {
      chunk += `${line}\n`;
      if (chunk.length >= CHUNK_BYTES) {
        await writeChunk(stream, chunk);
        chunk = '';
      }
    }
    await writeChunk(stream, chunk);
    if (partial) {
      stream.end();
      await once(stream, 'finish');
      // Renamed only once complete: a file under the chosen name is a whole backup. Owner-only
      // (0600), as it holds password hashes.
      await rename(partial, out!);
    }
    bar.stop();
    const seconds = (performance.now() - started) / 1000;
    say(
      `Exported ${rows} rows of the spec "${meta.specName ?? '?'}" from the ${source.kind} database${out ? ` to ${out}` : ''} in ${seconds.toFixed(1)} s. Sessions are not in a backup: after a restore everybody signs in again.`,
    );
    return 0;
  } catch (error) {
    bar.stop();
    if (partial) await rm(partial, { force: true });
    throw error;
  } finally {
    await source.close();
  }
}

export async function backupImportCommand(argv: string[], settings: Settings): Promise<number> {
  const [path] = argv;
  if (!path || argv.length !== 1) {
    console.error(BACKUP_IMPORT_USAGE);
    return 2;
  }
  try {
    await access(path);
  } catch (error) {
    console.error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  // No first administrator from NINEFOLD_ADMIN_EMAIL here: the database must stay empty for the backup.
  const engine = await openEngine({ ...settings, adminEmail: undefined, adminPassword: undefined });
  const bar = progressBar();
  let barStarted = false;
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    const started = performance.now();
    const report = await engine.importBackup(lines, {
      onProgress: (p) => {
        if (!barStarted) {
          bar.start(p.allTotal, p.allDone, { table: p.table });
          barStarted = true;
        } else bar.update(p.allDone, { table: p.table });
      },
    });
    bar.stop();
    for (const table of report.tables) console.log(`  ${table.name}: ${table.rows} rows`);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Imported ${report.rows} rows into the ${engine.databaseKind} database in ${seconds.toFixed(1)} s. Everybody signs in again (sessions are not in a backup).`,
    );
    return 0;
  } catch (error) {
    bar.stop();
    if (!(error instanceof BackupRefused)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    lines.close();
    input.destroy();
    await engine.close();
  }
}
