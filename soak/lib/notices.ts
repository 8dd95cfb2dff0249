import { sleep } from '../../bench/lib/processes';
import type { Api, Notice } from './api';

/** What a user's inbox holds of one kind, against the records that should each have told them once. */
export interface NoticeAudit {
  /** Notifications of the kind found for the records expected. */
  readonly delivered: number;
  /** Records with no notification after the wait: lost. */
  readonly missing: readonly number[];
  /** Records told more than once: sent twice. */
  readonly twice: readonly number[];
  /** How long until every record had its notification (or the wait ran out). */
  readonly waitedMs: number;
}

/**
 * Reads the user's whole inbox until each expected record has its notification of `kind` (the
 * dispatcher delivers after the commit, so a backlog may take a while), or until `waitMs` passes;
 * then says which records have none and which more than one.
 */
export async function auditNotices(api: Api, kind: string, records: Iterable<number>, waitMs: number): Promise<NoticeAudit> {
  const expected = new Set(records);
  const started = performance.now();
  for (;;) {
    const counts = new Map<number, number>();
    for (const notice of await api.all<Notice>('/api/v1/inbox')) {
      if (notice.kind === kind) counts.set(notice.recordId, (counts.get(notice.recordId) ?? 0) + 1);
    }
    const missing = [...expected].filter((id) => !counts.has(id));
    const waitedMs = performance.now() - started;
    if (missing.length === 0 || waitedMs > waitMs) {
      return {
        delivered: [...expected].filter((id) => counts.has(id)).length,
        missing,
        twice: [...counts].filter(([id, n]) => expected.has(id) && n > 1).map(([id]) => id),
        waitedMs,
      };
    }
    await sleep(500);
  }
}
