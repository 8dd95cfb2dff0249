import type { Store } from '../store/types';
import { CHANGES_CHANNEL, parseChange, type Change } from './changes';

export interface ChangeListener {
  onChange(change: Change): void;
  /** Changes may have been missed (the database connection that listens was lost and is back). */
  onResync(): void;
}

/** The database's changes as they commit, from any writer (this process, another one, the CLI). */
export interface LiveFeed {
  /** Resolves once listening; the function it gives stops this listener. */
  subscribe(listener: ChangeListener): Promise<() => void>;
}

/**
 * One LISTEN per process, opened by the first subscriber and closed after the last (a CLI run
 * that never subscribes opens no connection).
 */
export function createLiveFeed(store: Store): LiveFeed {
  const listeners = new Set<ChangeListener>();
  let listening: Promise<() => Promise<void>> | null = null;

  const start = () =>
    store.listen(CHANGES_CHANNEL, {
      onNotify(payload) {
        const change = parseChange(payload);
        if (change) for (const listener of listeners) listener.onChange(change);
      },
      onResync() {
        for (const listener of listeners) listener.onResync();
      },
    });

  return {
    async subscribe(listener) {
      listeners.add(listener);
      listening ??= start();
      try {
        await listening;
      } catch (error) {
        listeners.delete(listener);
        listening = null;
        throw error;
      }
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0 || !listening) return;
        const stopping = listening;
        listening = null;
        void stopping.then((stop) => stop()).catch(() => undefined);
      };
    },
  };
}
