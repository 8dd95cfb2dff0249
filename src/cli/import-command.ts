import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import { importCsv, type ImportProgress, type ImportReport } from '@/engine/csv/import-csv';
import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import { normalizeEmail } from '@/engine/identity/identity';
import type { Actor } from '@/engine/ground/actor';
import { openEngine } from '@/engine/open-engine';
import type { Settings } from '@/engine/settings';
import { inSentence } from '@/engine/spec/naming';
import { isAdmin } from '@/engine/access/policy';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

export const IMPORT_USAGE = 'Usage: import <entity> <file.csv> [--as <email>] [--good-rows]';

/**
 * The command line reads the file as a stream and holds no more of it than the rows it imports
 * (at most the importing user's row cap); this bounds only how much it reads.
 */
const CLI_MAX_BYTES = 512 * 1024 * 1024;

const PHASES: Record<ImportProgress['phase'], string> = { reading: 'Reading ', checking: 'Checking', writing: 'Writing ' };

/** Who imports: the user `--as` names, or else the first administrator (the CLI has no session). */
async function importingActor(engine: Engine, email: string | undefined): Promise<Actor | string> {
  const users = (await engine.identity.listUsers(SYSTEM_ACTOR)).filter((u) => !u.disabled);
  const user =
    email === undefined
      ? [...users].sort((a, b) => a.id - b.id).find((u) => isAdmin(u))
      : users.find((u) => u.email === normalizeEmail(email));
  if (!user)
    return email === undefined
      ? 'There is no active administrator to import as: name a user with --as <email>.'
      : `No active user with the email ${email}.`;
  return { userId: user.id, email: user.email, name: user.name, roles: user.roles };
}

function printReport(report: ImportReport, one: string, many: string, actor: Actor): void {
  const records = (n: number) => `${n} ${n === 1 ? one : many}`;
  for (const refusal of report.refused) {
    for (const problem of refusal.problems)
      console.error(`line ${refusal.line}: ${problem.column ? `${problem.column}: ` : ''}${problem.message}`);
  }
  const refused = report.refusedRows;
  const unlisted = refused - report.refused.length;
  if (unlisted > 0) console.error(`…and ${unlisted} more ${unlisted === 1 ? 'row' : 'rows'} with problems, not listed.`);
  if (refused === 0)
    console.log(`Imported ${records(report.created)} from ${report.rows} ${report.rows === 1 ? 'row' : 'rows'}, as ${actor.email}.`);
  else if (report.goodRows)
    console.log(
      `Imported ${records(report.created)}, as ${actor.email}; ${refused} of ${report.rows} rows ${refused === 1 ? 'was' : 'were'} refused (above).`,
    );
  else {
    const good = report.rows - refused;
    console.log(
      `Nothing imported: ${refused} of ${report.rows} rows ${refused === 1 ? 'was' : 'were'} refused (above). Fix them and run again${good > 0 ? `, or add --good-rows to import the ${good} good ${good === 1 ? 'row' : 'rows'}` : ''}.`,
    );
  }
}

/**
 * `import <entity> <file.csv>`: the rows of the file as new records, checked and written through
 * ops as the importing user (src/engine/csv/import-csv.ts, as the import page does). Exit code 1
 * when rows were refused and nothing was written, or the file could not be imported at all.
 */
export async function importCommand(argv: string[], settings: Settings): Promise<number> {
  let values: { as?: string; 'good-rows'?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { as: { type: 'string' }, 'good-rows': { type: 'boolean', default: false } },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${IMPORT_USAGE}`);
    return 2;
  }
  const [entityName, path] = positionals;
  if (!entityName || !path || positionals.length > 2) {
    console.error(IMPORT_USAGE);
    return 2;
  }
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
    size = info.size;
  } catch (error) {
    console.error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const engine = await openEngine(settings);
  const bar = new SingleBar(
    { format: '{phase} [{bar}] {percentage}% | {value}/{total} rows', stream: process.stderr },
    Presets.shades_classic,
  );
  let phase: ImportProgress['phase'] | null = null;
  try {
    const { model } = engine;
    const entity = Object.hasOwn(model.entitiesByName, entityName)
      ? model.entitiesByName[entityName]
      : Object.hasOwn(model.entitiesByPlural, entityName)
        ? model.entitiesByPlural[entityName]
        : undefined;
    if (!entity) {
      console.error(`No entity "${entityName}". This spec has: ${model.entities.map((e) => e.name).join(', ')}.`);
      return 2;
    }
    const actor = await importingActor(engine, values.as);
    if (typeof actor === 'string') {
      console.error(actor);
      return 1;
    }
    const report = await importCsv(
      engine.ops,
      model,
      actor,
      entity.name,
      { size, chunks: createReadStream(path) },
      {
        goodRows: values['good-rows'],
        maxBytes: CLI_MAX_BYTES,
        onProgress: (progress) => {
          if (progress.phase !== phase) {
            if (phase !== null) bar.stop();
            phase = progress.phase;
            bar.start(progress.total, progress.done, { phase: PHASES[progress.phase] });
          } else bar.update(progress.done);
        },
      },
    );
    bar.stop();
    printReport(report, inSentence(entity.label), inSentence(entity.pluralLabel), actor);
    return report.refusedRows > 0 && report.created === 0 ? 1 : 0;
  } catch (error) {
    bar.stop();
    const known = asNinefoldError(error);
    if (!known) throw error;
    console.error(known.message);
    for (const e of known.fieldErrors) console.error(`  ${e.message}`);
    return 1;
  } finally {
    await engine.close();
  }
}
