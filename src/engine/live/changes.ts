/**
 * What the database says changed, as the triggers of ./triggers.ts notify it on the channel
 * `nf_changes` once the writing transaction commits (a rollback sends nothing). It names records,
 * never their contents: who may learn of a change is decided per viewer by ops.readable.
 */
export const CHANGES_CHANNEL = 'nf_changes';

/** Records of one entity written by one statement. */
export interface RecordChange {
  readonly kind: 'records';
  readonly entity: string;
  readonly op: 'insert' | 'update' | 'delete';
  /** The ids, or null when the statement touched too many for one notification ("some changed"). */
  readonly ids: readonly number[] | null;
  /**
   * For deletes: the columns the entity's read scopes test, of each deleted row (its last image),
   * so that readability is decided on what the row was. Null when too many to carry.
   */
  readonly gone: readonly Readonly<Record<string, unknown>>[] | null;
}

/** Accounts changed: sessions ended (sign-out, disable) or users changed (roles, disable). */
export interface AccountChange {
  readonly kind: 'accounts';
  /** Hashes of the ended sessions, or null when too many (every session must be checked again). */
  readonly sessions: readonly string[] | null;
  readonly users: readonly number[];
}

export type Change = RecordChange | AccountChange;

const OPS = { i: 'insert', u: 'update', d: 'delete' } as const;

const isIdList = (value: unknown): value is number[] => Array.isArray(value) && value.every((id) => Number.isSafeInteger(id));

/** A notification's payload as a change; null for anything this version does not understand. */
export function parseChange(payload: string): Change | null {
  let data: unknown;
  try {
    data = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (typeof record.e === 'string' && typeof record.op === 'string' && record.op in OPS) {
    const gone = Array.isArray(record.rows)
      ? (record.rows as unknown[]).filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
      : null;
    return {
      kind: 'records',
      entity: record.e,
      op: OPS[record.op as keyof typeof OPS],
      ids: isIdList(record.ids) ? record.ids : null,
      gone: record.op === 'd' ? gone : null,
    };
  }
  if ('sessions' in record || 'users' in record) {
    const sessions = Array.isArray(record.sessions) ? record.sessions.filter((s): s is string => typeof s === 'string') : null;
    return { kind: 'accounts', sessions: 'sessions' in record ? sessions : [], users: isIdList(record.users) ? record.users : [] };
  }
  return null;
}
