/** Messages between the main thread and ./worker.mjs (which is plain JavaScript). */

export interface QueryRequest {
  readonly id: number;
  readonly type: 'query';
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

export interface CloseRequest {
  readonly id: number;
  readonly type: 'close';
}

/** Starts (or stops) forwarding the NOTIFYs of a channel as NotifyMessages. */
export interface ListenRequest {
  readonly id: number;
  readonly type: 'listen' | 'unlisten';
  readonly channel: string;
}

export type WorkerRequest = QueryRequest | CloseRequest | ListenRequest;

/** A Postgres error as the worker sends it back: the message plus the server's fields. */
export interface SerializedDatabaseError {
  readonly message: string;
  readonly code?: string;
  readonly severity?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;
  readonly where?: string;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly dataType?: string;
  readonly constraint?: string;
  readonly routine?: string;
}

export interface StartedMessage {
  readonly type: 'ready';
}

export interface StartFailedMessage {
  readonly type: 'failed';
  readonly error: SerializedDatabaseError;
}

export interface QuerySucceeded {
  readonly id: number;
  readonly ok: true;
  readonly rows?: readonly Record<string, unknown>[];
  readonly command?: string | null;
  readonly affectedRows?: number | null;
}

export interface QueryFailed {
  readonly id: number;
  readonly ok: false;
  readonly error: SerializedDatabaseError;
}

/** A NOTIFY on a channel the main thread listens to, sent once the notifying transaction committed. */
export interface NotifyMessage {
  readonly type: 'notify';
  readonly channel: string;
  readonly payload: string;
}

export type WorkerMessage = StartedMessage | StartFailedMessage | QuerySucceeded | QueryFailed | NotifyMessage;
