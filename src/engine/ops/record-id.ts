// The ops write kit, lowest layer: what the reads, writes and transitions share, importing none of them.

/** A record id as the doors pass it: a positive safe integer (anything else is NOT_FOUND, never a database error). */
export function isRecordId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
}
