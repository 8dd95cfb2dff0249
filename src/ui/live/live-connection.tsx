'use client';

import { useRouter } from 'next/navigation';
import { startTransition, useEffect, useState } from 'react';
import { openSharedLiveStream, type LiveMessage } from './shared-stream';
import { dispatchChanges, refreshable } from './topics';
import { announceUnread } from './unread';

/** Changes close together are one refresh. */
const REFRESH_DELAY_MS = 60;
/**
 * The stream opens this long after the page has loaded, so it never competes with the page's own
 * requests (and "network idle" still means the page is done); the server replays what changed
 * since the page was rendered, so the wait loses nothing.
 */
const OPEN_AFTER_LOAD_MS = 1500;
/** Margin for the page's data having been read a little before its render time was taken. */
const RENDER_MARGIN_MS = 2000;

/**
 * Keeps the signed-in page live, mounted once in the shell. A change to a record the page shows
 * refreshes it in place (router.refresh keeps what the user is typing in uncontrolled fields); a
 * hidden tab waits until it is shown again. After missed changes (a lost connection) the page
 * refreshes once; a long outage is shown, quietly, and so is a stream the server refused (too
 * many open for this session or user). When the session ends, the refresh sends the
 * page to sign-in. The connection itself is shared by the app's tabs (./shared-stream.ts).
 */
export function LiveConnection({
  renderedAt,
}: {
  /** When the server rendered the page this shell came with (epoch ms, the server's clock). */
  renderedAt: number;
}) {
  const router = useRouter();
  const [reconnecting, setReconnecting] = useState(false);
  const [refused, setRefused] = useState(false);
  // The first render's time only: a refresh re-renders the shell, the stream stays as it is.
  const [since] = useState(() => renderedAt - RENDER_MARGIN_MS);

  useEffect(() => {
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    let staleWhileHidden = false;
    let stop: (() => void) | null = null;

    const refresh = () => {
      if (document.visibilityState === 'hidden') {
        staleWhileHidden = true;
        return;
      }
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => startTransition(() => router.refresh()), REFRESH_DELAY_MS);
    };
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || !staleWhileHidden) return;
      staleWhileHidden = false;
      refresh();
    };
    const onMessage = (message: LiveMessage) => {
      if (message.kind === 'change') {
        if (dispatchChanges(message.changes)) refresh();
      } else if (message.kind === 'catch-up') {
        if (refreshable()) refresh();
      } else if (message.kind === 'inbox') announceUnread(message.unread);
      else if (message.kind === 'end') refresh();
      else if (message.kind === 'refused') setRefused(message.on);
      else setReconnecting(message.on);
    };
    const start = () => {
      stop = openSharedLiveStream({ since, delayMs: OPEN_AFTER_LOAD_MS, onMessage });
    };

    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stop?.();
      clearTimeout(refreshTimer);
      window.removeEventListener('load', start);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [router, since]);

  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed bottom-3 left-3 z-20">
      {reconnecting ? (
        <span className="rounded-full border border-zinc-300 bg-white px-3 py-1 text-xs text-zinc-700 shadow-sm">
          Reconnecting to live updates…
        </span>
      ) : refused ? (
        <span className="rounded-full border border-zinc-300 bg-white px-3 py-1 text-xs text-zinc-700 shadow-sm">
          Live updates paused: too many windows open. Close some; updates resume by themselves.
        </span>
      ) : null}
    </div>
  );
}
