import 'server-only';
import { readCapped } from '@/api/body';
import { importCsv, type ImportProgress, type ImportReport } from '@/engine/csv/import-csv';
import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { resolveLimits } from '@/engine/limits';
import { IMPORT_PROBLEMS_SHOWN, type ImportProblem, type ImportState } from '@/ui/csv/import-state';
import { BOM, csvLines } from './export-csv';

/** The refused rows are offered as a file up to this size (it travels inside the page). */
const REJECTS_MAX_CHARS = 512 * 1024;

/** What a refusal of the whole file means on the import page (the catalogue's titles are the API's). */
const FILE_REFUSALS: Readonly<Record<string, string>> = {
  UNSUPPORTED_MEDIA_TYPE: 'This file cannot be read as CSV',
  VALIDATION_FAILED: 'Some columns cannot be imported',
  PAYLOAD_TOO_LARGE: 'The file is too large',
};

/** The refused rows as the file had them, with a last column saying what to fix; null when too large, or not every one is listed. */
function rejectsCsv(report: ImportReport): string | null {
  if (report.refused.length < report.refusedRows) return null;
  let size = 0;
  const rows: string[][] = [[...report.header, 'Problems']];
  for (const refusal of report.refused) {
    const problems = refusal.problems.map((p) => (p.column ? `${p.column}: ${p.message}` : p.message)).join(' ');
    const row = [...refusal.cells, ...Array<string>(Math.max(0, report.header.length - refusal.cells.length)).fill(''), problems];
    size += row.reduce((n, cell) => n + cell.length + 3, 0);
    if (size > REJECTS_MAX_CHARS) return null;
    rows.push(row);
  }
  return `${BOM}${csvLines(rows)}`;
}

function outcome(report: ImportReport, fileName: string): ImportState {
  const problems: ImportProblem[] = [];
  for (const refusal of report.refused) {
    for (const p of refusal.problems) {
      if (problems.length >= IMPORT_PROBLEMS_SHOWN) break;
      problems.push({ line: refusal.line, column: p.column, message: p.message });
    }
  }
  return {
    kind: 'done',
    fileName,
    rows: report.rows,
    created: report.created,
    goodRows: report.goodRows,
    refusedRows: report.refusedRows,
    problems,
    unlistedRows: report.refusedRows - new Set(problems.map((p) => p.line)).size,
    rejects: report.refusedRows > 0 ? rejectsCsv(report) : null,
  };
}

/**
 * Imports a file sent from the import page as the signed-in actor (src/engine/csv/import-csv.ts)
 * and says how it went; a file that cannot be imported at all says why, with the catalogue's
 * words. Shared by the form's server action (no JavaScript) and the progress stream.
 */
export async function runImport(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  file: { readonly name: string; readonly bytes: Uint8Array },
  goodRows: boolean,
  onProgress?: (progress: ImportProgress) => void,
): Promise<ImportState> {
  try {
    const report = await importCsv(engine.ops, engine.model, actor, entity.name, file.bytes, {
      goodRows,
      maxBytes: resolveLimits(engine.model).importMaxBytes,
      onProgress,
    });
    return outcome(report, file.name);
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    return {
      kind: 'refused',
      fileName: file.name,
      title: FILE_REFUSALS[known.code] ?? known.title,
      message: known.message,
      problems: known.fieldErrors.map((e) => ({ line: 1, column: e.field, message: e.message })),
    };
  }
}

/** The file of a form post, or null when none was chosen. */
/** Multipart framing around the file, beyond the file's own limit. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The import form as posted, or why it could not be read. */
export type PostedImport =
  | { readonly kind: 'file'; readonly file: { readonly name: string; readonly bytes: Uint8Array }; readonly goodRows: boolean }
  | { readonly kind: 'tooLarge' }
  | { readonly kind: 'noFile' };

/**
 * Reads the import form of a request, never more than the import's limit plus the form's
 * framing, however the body is sent (a declared length or chunks): both the page's script and
 * the form posted without JavaScript reach the import this way.
 */
export async function readPostedImport(request: Request, maxBytes: number): Promise<PostedImport> {
  let form: FormData;
  try {
    const bytes = await readCapped(request, maxBytes + FORM_OVERHEAD_BYTES);
    form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
  } catch (error) {
    return asNinefoldError(error)?.code === 'PAYLOAD_TOO_LARGE' ? { kind: 'tooLarge' } : { kind: 'noFile' };
  }
  const file = form.get('file');
  if (!(file instanceof Blob) || (file.size === 0 && !(file as File).name)) return { kind: 'noFile' };
  return {
    kind: 'file',
    file: { name: (file as File).name || 'file.csv', bytes: new Uint8Array(await file.arrayBuffer()) },
    goodRows: form.get('goodRows') === '1',
  };
}
