/**
 * The NOTIFY channel on which the dispatcher (new in-app notifications) and the inbox (a read)
 * announce, on commit, the users whose unread count changed: a JSON list of user ids, nothing of
 * the records (src/server/live sends each user's own bell their count).
 */
export const INBOX_CHANNEL = 'nf_inbox';

/** The user ids of an inbox announcement; empty for anything else. */
export function parseInboxUsers(payload: string): number[] {
  try {
    const value: unknown = JSON.parse(payload);
    return Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}
