/**
 * A Ninefold backup is JSON lines (one JSON value per line, UTF-8):
 *
 *   {"ninefold":"backup","format":1,"spec":"helpdesk",...,"tables":[{"name":"nf_user","columns":[...],"rows":3,...},...]}
 *   {"table":"nf_user"}
 *   [1,"ada@example.com",...]          one JSON array per row, values in the header's column order
 *   ...
 *   {"table":"ticket"}
 *   ...
 *   {"end":true,"rows":12345}
 *
 * The header names every table and column before any row, so an import can refuse a backup that
 * does not fit the database before it writes anything; the end line tells a complete backup from
 * a truncated one. Tables come in dependency order (a table after the tables it references).
 *
 * Values are written so that PostgreSQL reads them back exactly: JSON numbers for integers and
 * booleans, JSON itself for jsonb, and for every other type the text PostgreSQL prints for it
 * (timestamps in UTC with every digit, numerics with their scale, arrays as array literals).
 */
export const BACKUP_FORMAT = 1;
export const BACKUP_MARK = 'ninefold';

export interface BackupSequence {
  /** The identity column the sequence feeds. */
  readonly column: string;
  /** The sequence's last_value and is_called, so that ids of deleted rows are not handed out again. */
  readonly lastValue: string;
  readonly isCalled: boolean;
}

export interface BackupTable {
  readonly name: string;
  readonly columns: readonly string[];
  /** The column types as the source database printed them (format_type), for the reader's information. */
  readonly types: readonly string[];
  readonly rows: number;
  readonly sequence?: BackupSequence;
}

export interface BackupHeader {
  readonly ninefold: 'backup';
  readonly format: number;
  /** The spec the source database was last synced with (nf_meta), and that schema's fingerprint. */
  readonly spec: string | null;
  readonly fingerprint: string | null;
  readonly database: 'pglite' | 'postgres';
  readonly exportedAt: string;
  readonly tables: readonly BackupTable[];
  /** Tables of the source left out on purpose, with why (sessions, throttles, derived totals, ...). */
  readonly skipped: Readonly<Record<string, string>>;
}

export interface BackupSectionLine {
  readonly table: string;
}

export interface BackupEndLine {
  readonly end: true;
  readonly rows: number;
}

/** Rows read or written per statement: a batch stays well under a megabyte for ordinary records. */
export const BATCH_ROWS = 500;
