import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import type { Ops } from '../ops/ops';
import type { Actor } from '../ground/actor';
import { forbidden } from '../access/refusal';
import { checkWriteDoor } from '../access/call-door';
import type { AppModel } from '../spec/model';
import { entityOf } from '../ops/context';
import { cellInput } from './import-cells';
import { EventLoopTurns } from '../event-loop-turns';
import { rowsCapFor, tooManyRows } from '../ops/rows-cap';
import { checkUnnamedColumns, mapColumns, type ImportColumn } from './import-columns';
import { openCsv, type CsvRow, type CsvSource } from './read-csv';
import { inSentence } from '../spec/naming';

/*
 * Imports a CSV file as new records of one entity for one actor, through ops: the header names
 * the fields, each row is read as the form would read it, and ops.createMany checks and writes
 * them exactly as creates. The same for the import page and the command line.
 */

export interface ImportProgress {
  /** Reading the file and looking up references, then ops' checking and writing. */
  readonly phase: 'reading' | 'checking' | 'writing';
  readonly done: number;
  readonly total: number;
}

export interface ImportOptions {
  /** Write the good rows and leave out the bad ones; default: nothing unless every row is good. */
  readonly goodRows?: boolean;
  /** Files larger than this are refused (PAYLOAD_TOO_LARGE). */
  readonly maxBytes: number;
  readonly onProgress?: (progress: ImportProgress) => void;
}

/** One thing wrong with a row: the column it is about (as the file names it), or null for the row as a whole. */
export interface LineProblem {
  readonly column: string | null;
  readonly message: string;
}

/** A refused row: its line in the file, what is wrong, and its cells as they were (to fix and import again). */
export interface LineRefusal {
  readonly line: number;
  readonly problems: readonly LineProblem[];
  readonly cells: readonly string[];
}

export interface ImportReport {
  /** The header row as in the file. */
  readonly header: readonly string[];
  /** Data rows in the file (blank ones aside). */
  readonly rows: number;
  /** Records created: every row, none, or with `goodRows` the good ones. */
  readonly created: number;
  readonly goodRows: boolean;
  /** The first refused rows, by line (at most REFUSED_ROWS_LISTED of ops.createMany). */
  readonly refused: readonly LineRefusal[];
  /** Every refused row, listed or not. */
  readonly refusedRows: number;
}

/** Field name of a problem with the row's shape rather than one field. */
const ROW = '';

/**
 * Reads, checks and (when allowed) writes the file, a row at a time as it is read: the file's
 * text is never held whole, reading stops at the actor's row cap (ops/rows-cap.ts), and the
 * event loop gets a turn every few milliseconds. File-level problems are thrown as catalogue
 * errors: UNSUPPORTED_MEDIA_TYPE (empty, not UTF-8, a workbook, broken quoting),
 * PAYLOAD_TOO_LARGE (too many bytes or rows: nothing is written), VALIDATION_FAILED naming the
 * columns (a column that is not an importable field, or a required one missing); FORBIDDEN
 * when the actor may not create such records. Row problems are in the report, by line.
 */
export async function importCsv(
  ops: Ops,
  model: AppModel,
  actor: Actor,
  entityName: string,
  file: CsvSource,
  options: ImportOptions,
): Promise<ImportReport> {
  const entity = entityOf(model, entityName);
  checkWriteDoor(entity, actor, 'create', 'imported');
  const access = ops.access(actor, entity.name);
  // Before reading the file: its columns would all be "not importable" otherwise. ops.createMany refuses the same.
  if (!access.actions.create) throw forbidden(actor, entity, 'create', `You are not allowed to create ${inSentence(entity.pluralLabel)}.`);
  const cap = rowsCapFor(model, entity, actor);
  const csv = await openCsv(file, options.maxBytes);
  const rows: CsvRow[] = [];
  const inputs: Record<string, unknown>[] = [];
  const known = new Map<number, FieldError[]>();
  const note = (index: number, error: FieldError) => (known.get(index) ?? known.set(index, []).get(index)!).push(error);
  let columns: ImportColumn[];
  try {
    columns = mapColumns(entity, access, csv.header);
    const unnamed = columns.flatMap((column, index) => (column.header === '' ? [index] : []));
    const filled = new Set<number>();
    const turns = new EventLoopTurns();
    for await (const batch of csv.rows) {
      for (const row of batch) {
        if (rows.length === cap.max) throw tooManyRows(entity, cap);
        for (const index of unnamed) {
          const cell = row.cells[index];
          if (cell !== undefined && cell.trim() !== '') filled.add(index);
        }
        const index = rows.length;
        rows.push(row);
        inputs.push(rowInput(columns, row, (error) => note(index, error)));
        await turns.take();
      }
    }
    checkUnnamedColumns(columns, filled);
  } finally {
    await csv.close();
  }
  const total = rows.length;
  /** The row of an index ops was given (every index it reports is one of the inputs, one per row). */
  const rowAt = (index: number): CsvRow => {
    const row = rows[index];
    if (row === undefined) throw new Error(`The import has no row ${index}: it read ${total}.`);
    return row;
  };
  if (total === 0) throw new NinefoldError('UNSUPPORTED_MEDIA_TYPE', 'The file has no rows to import: only a header row.');
  options.onProgress?.({ phase: 'reading', done: 0, total });
  await resolveReferences(ops, actor, entity.name, columns, inputs, note);
  options.onProgress?.({ phase: 'reading', done: total, total });

  const result = await ops.createMany(actor, entity.name, inputs, {
    goodRows: options.goodRows ?? false,
    knownErrors: known,
    rowName: (index) => `line ${rowAt(index).line}`,
    onProgress: options.onProgress,
  });
  const headerOf = new Map(columns.filter((c) => c.field).map((c) => [c.field!.name, c.header]));
  return {
    header: csv.header,
    rows: total,
    created: result.created,
    goodRows: options.goodRows ?? false,
    refused: result.refused.map((refusal) => {
      const problems: LineProblem[] = refusal.fieldErrors.map((e) => ({
        column: e.field === ROW ? null : (headerOf.get(e.field) ?? entity.fieldsByName[e.field]?.label ?? null),
        message: e.message,
      }));
      if (problems.length === 0) problems.push({ column: null, message: refusal.message });
      const { line, cells } = rowAt(refusal.index);
      return { line, problems, cells };
    }),
    refusedRows: result.refusedRows,
  };
}

/** The row as a create's input: each column's cell as the form would send it. */
function rowInput(columns: readonly ImportColumn[], row: CsvRow, problem: (error: FieldError) => void): Record<string, unknown> {
  const extra = row.cells.slice(columns.length).filter((cell) => cell.trim() !== '').length;
  if (extra > 0) {
    problem({
      field: ROW,
      code: 'too_many_values',
      message: `This line has ${row.cells.length} values; the header has ${columns.length} columns.`,
    });
  }
  const input: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    if (!column.field) return;
    const value = cellInput(column.field, row.cells[i] ?? '');
    if (value !== undefined) input[column.field.name] = value;
  });
  return input;
}

/**
 * References and users given by title, email or name become ids, one lookup per column for all
 * its distinct values; a value naming nothing (or several) is a problem of that row, and its
 * field is left out so that ops reports the row's other problems, not a "required" for it.
 */
async function resolveReferences(
  ops: Ops,
  actor: Actor,
  entity: string,
  columns: readonly ImportColumn[],
  inputs: Record<string, unknown>[],
  problem: (index: number, error: FieldError) => void,
): Promise<void> {
  for (const column of columns) {
    const field = column.field;
    if (!field || (field.type !== 'reference' && field.type !== 'user' && field.type !== 'users')) continue;
    // A set of users is its members joined by ";" (as exports write a set), each an id, email or name.
    const partsOf = (value: string) => (field.type === 'users' ? setMembers(value) : [value]);
    const values = [
      ...new Set(inputs.flatMap((input) => (typeof input[field.name] === 'string' ? partsOf(input[field.name] as string) : []))),
    ];
    if (values.length === 0) continue;
    const found = await ops.lookup(actor, entity, field.name, values);
    inputs.forEach((input, index) => {
      const value = input[field.name];
      if (typeof value !== 'string') return;
      const results = partsOf(value).map((part) => ({ part, result: found.get(part) }));
      const failed = results.find(({ result }) => !result || !('id' in result));
      if (!failed) {
        const ids = results.map(({ result }) => (result as { id: number }).id);
        input[field.name] = field.type === 'users' ? ids : ids[0];
        return;
      }
      delete input[field.name];
      const error = failed.result && 'error' in failed.result ? failed.result.error : `“${failed.part}” names nothing.`;
      problem(index, { field: field.name, code: 'unknown_reference', message: error });
    });
  }
}

/** The members a set's cell names, each trimmed, blanks dropped. */
function setMembers(cell: string): string[] {
  return cell
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
