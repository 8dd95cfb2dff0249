import type { CatalogueColumn, CatalogueTable } from '../store/schema/types';

/**
 * Which of the database's tables a backup holds. Every table of the schema is either copied or
 * skipped here by name with its reason; a table that is neither (a new one the engine grew) is
 * copied, so that nothing is lost by default, and backup.int.test.ts fails until it is listed.
 */
export const SKIPPED_TABLES: Readonly<Record<string, string>> = {
  nf_session: 'sessions: everybody signs in again after a restore',
  nf_sign_in_attempt: 'failed sign-in counters: a throttle window, not data',
  nf_setup_code: 'setup codes: only while there is no user, and a backup with users needs none',
  nf_tally: 'running totals: recounted by their triggers as the records are inserted',
  nf_meta: "the schema sync's own record: written by the sync of the database restored into",
  nf_webhook_delivery: 'webhook deliveries: what was sent to other systems; a restored server must not send it again',
  nf_webhook_attempt: "webhook attempts: the deliveries' log, skipped with them",
};

/** The engine's own tables that a backup copies (entity tables are copied too, being the spec's). */
export const COPIED_SYSTEM_TABLES: readonly string[] = [
  ...['nf_user', 'nf_api_token', 'nf_invite', 'nf_saved_view', 'nf_audit'],
  // Notifications (src/engine/notify): users' choices, watches and inbox; the outbox and e-mails,
  // so that a restore delivers what was pending and the outbox's ids go on (deliveries are unique
  // on them: restarted ids would collide with restored notifications and be dropped); reminders and
  // digests taken, so none is sent twice; and the key of unsubscribe links already mailed.
  ...['nf_notify_preference', 'nf_watch', 'nf_notification', 'nf_outbox', 'nf_mail', 'nf_reminder', 'nf_digest', 'nf_notify_secret'],
  // Files: their metadata, and their bytes where PostgreSQL keeps them (with NINEFOLD_FILES_DIR
  // the bytes are that directory's files, which the backup does not hold: copy the directory too).
  ...['nf_file', 'nf_file_chunk'],
];

/**
 * Rows per page (export) and per INSERT (import) for tables whose rows are large: a file chunk
 * is 64 KB, written as 128 KB of hex, so a few at a time keep the memory held to a megabyte.
 */
const ROWS_AT_ONCE: Readonly<Record<string, number>> = { nf_file_chunk: 8 };

/** How many of a table's rows to read or write at once, at most `otherwise`. */
export function rowsAtOnce(table: string, otherwise: number): number {
  return Math.min(ROWS_AT_ONCE[table] ?? otherwise, otherwise);
}

export interface CopiedTable {
  readonly name: string;
  /** Stored columns in table order (generated columns are recomputed, so they are left out). */
  readonly columns: readonly CatalogueColumn[];
  readonly primaryKey: readonly string[];
  /** The identity column, whose sequence must continue after the largest id restored. */
  readonly identity: string | null;
  /** Tables this one references through foreign keys (itself included when it does). */
  readonly references: readonly string[];
}

export function isSkipped(table: string): boolean {
  return Object.hasOwn(SKIPPED_TABLES, table);
}

function copiedTable(table: CatalogueTable): CopiedTable {
  const primary = table.constraints.find((c) => c.kind === 'primary');
  if (!primary || primary.columns.length === 0) {
    throw new Error(`The table ${table.name} has no primary key, so it cannot be read in order for a backup.`);
  }
  const columns = table.columns.filter((c) => c.generated === null);
  return {
    name: table.name,
    columns,
    primaryKey: primary.columns,
    identity: columns.find((c) => c.identity)?.name ?? null,
    references: [...new Set(table.constraints.flatMap((c) => (c.kind === 'foreign' && c.references ? [c.references.table] : [])))],
  };
}

/**
 * The tables a backup copies, each after the tables it references (Kahn's algorithm, ties in
 * catalogue order, so that two exports of one schema list them alike). References within a
 * cycle, or of a table to itself, cannot be ordered away: the import defers those checks.
 */
export function copiedTables(catalogue: readonly CatalogueTable[]): CopiedTable[] {
  const tables = catalogue.filter((t) => !isSkipped(t.name)).map(copiedTable);
  const names = new Set(tables.map((t) => t.name));
  const placed = new Set<string>();
  const ordered: CopiedTable[] = [];
  while (ordered.length < tables.length) {
    const ready = (t: CopiedTable) => !placed.has(t.name) && t.references.every((r) => r === t.name || placed.has(r) || !names.has(r));
    // In a cycle no table is ready: take the one most of the others wait for (the users, when a
    // user field refers to an entity) and let the import defer the checks of its references.
    const next = tables.find(ready) ?? mostAwaited(tables.filter((t) => !placed.has(t.name)));
    placed.add(next.name);
    ordered.push(next);
  }
  return ordered;
}

/** Of the tables left, the one the most others among them refer to (the first such, on a tie). */
function mostAwaited(left: readonly CopiedTable[]): CopiedTable {
  const waiting = (t: CopiedTable) => left.filter((other) => other !== t && other.references.includes(t.name)).length;
  return left.reduce((best, t) => (waiting(t) > waiting(best) ? t : best));
}
