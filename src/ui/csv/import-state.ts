/**
 * What the import page shows after a file was sent: the outcome of the import, or why the file
 * could not be imported at all. Plain data: the server action returns it (without JavaScript)
 * and the progress stream ends with it (with JavaScript).
 */

/** One thing wrong with one line of the file. */
export interface ImportProblem {
  readonly line: number | null;
  readonly column: string | null;
  readonly message: string;
}

export type ImportState =
  | { readonly kind: 'idle' }
  | {
      readonly kind: 'done';
      readonly fileName: string;
      /** Data rows in the file. */
      readonly rows: number;
      readonly created: number;
      readonly goodRows: boolean;
      /** Rows refused. */
      readonly refusedRows: number;
      /** The first problems, by line (the page lists at most IMPORT_PROBLEMS_SHOWN). */
      readonly problems: readonly ImportProblem[];
      /** Refused rows none of whose problems are listed: counted only. */
      readonly unlistedRows: number;
      /** The refused rows as CSV with a column saying why, to fix and import again; null when too large to offer. */
      readonly rejects: string | null;
    }
  | {
      readonly kind: 'refused';
      readonly fileName: string;
      /** The catalogue's title and detail. */
      readonly title: string;
      readonly message: string;
      /** Per column, for a header that cannot be imported. */
      readonly problems: readonly ImportProblem[];
    };

export const IDLE_IMPORT: ImportState = { kind: 'idle' };

/** Problems an outcome lists at most; the file of refused rows, when offered, has them all. */
export const IMPORT_PROBLEMS_SHOWN = 200;

/** One line of the progress stream (NDJSON) the import page reads with JavaScript. */
export type ImportStreamLine =
  | { readonly type: 'progress'; readonly phase: 'reading' | 'checking' | 'writing'; readonly done: number; readonly total: number }
  | { readonly type: 'result'; readonly state: ImportState };
