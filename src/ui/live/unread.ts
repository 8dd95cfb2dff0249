/*
 * The unread count the live stream last said (src/server/live/hub.ts's `inbox` event), passed
 * from the page's one live connection to the header's bell without a context provider: the bell
 * subscribes while it is mounted.
 */

const listeners = new Set<(unread: number) => void>();

export function announceUnread(unread: number): void {
  for (const listener of listeners) listener(unread);
}

/** Calls `listener` with each new count; the function it returns stops that. */
export function onUnread(listener: (unread: number) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
