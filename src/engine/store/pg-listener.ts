import pg from 'pg';
import { connectionSettings } from './postgres';
import type { NotificationHandlers } from './types';
import { classifyDatabaseError } from './unavailable';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/**
 * LISTEN on PostgreSQL over one dedicated connection (a pooled one would be handed to queries,
 * and notifications arrive only on the connection that listens). When the connection drops it is
 * opened again with backoff, and `onResync` says that notifications may have been missed
 * meanwhile. Resolves once the first LISTEN is in place.
 */
export async function listenOnPostgres(databaseUrl: string, channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let timer: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new pg.Client(connectionSettings(databaseUrl));
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    // An error ends this client; 'end' then schedules the next one.
    next.on('error', () => undefined);
    next.on('end', () => {
      if (client === next) client = null;
      if (!stopped) reconnectLater();
    });
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
    retryMs = FIRST_RETRY_MS;
  };

  const reconnectLater = () => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      connect().then(
        () => handlers.onResync(),
        (error: unknown) => {
          console.error(
            '[ninefold] live changes: could not listen on PostgreSQL, retrying:',
            error instanceof Error ? error.message : error,
          );
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
          reconnectLater();
        },
      );
    }, retryMs);
    timer.unref();
  };

  try {
    await connect();
  } catch (error) {
    // Nobody will stop a listener that never started: no reconnecting in the background either.
    stopped = true;
    if (timer) clearTimeout(timer);
    throw classifyDatabaseError(error);
  }
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const open = client;
    client = null;
    await open?.end().catch(() => undefined);
  };
}
