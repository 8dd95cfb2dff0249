/**
 * A change to a record, as the notifications' outbox holds it: what the webhooks are told of.
 * (The outbox's own type has this shape; this module keeps its own so it stands alone.)
 */
export interface WebhookChange {
  readonly entity: string;
  readonly recordId: string | number;
  readonly kind: 'create' | 'update' | 'delete' | 'transition';
  /** For kind 'transition': its name. */
  readonly transition?: string;
  /** The fields whose values changed. */
  readonly changed: readonly string[];
  readonly actorId: string | null;
  readonly at: Date;
}

/** A record as one role may read it (fields it may not read left out), or null when it may not read it (or it is gone). */
export type RecordAsRole = Readonly<Record<string, unknown>> | null;

/** Reads the changed record with one role's field sight; the caller gives it (ops read as that role). */
export type ReadRecordAs = (role: string) => Promise<RecordAsRole>;
