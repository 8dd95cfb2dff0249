'use client';

import { useRouter } from 'next/navigation';
import { startTransition, useEffect, useState } from 'react';
import { dispatchChanges, refreshable, type LiveChanges } from './topics';

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
/** An outage shorter than this goes unmentioned (a server restart, a network blip). */
const QUIET_OUTAGE_MS = 4000;
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
 * The signed-in page's live stream (GET /api/live, server-sent events), opened once in the
 * shell. A change to a record the page shows refreshes it in place (router.refresh keeps what
 * the user is typing in uncontrolled fields); a hidden tab waits until it is shown again. A lost
 * connection comes back with growing pauses, then refreshes once to catch up; a long outage is
 * shown, quietly. When the session ends the stream ends, and the refresh sends the page to sign-in.
 */
export function LiveConnection({ renderedAt }: {
  /** When the server rendered the page this shell came with (epoch ms, the server's clock). */
  renderedAt: number;
}) {
  const router = useRouter();
  const [reconnecting, setReconnecting] = useState(false);
  // The first render's time only: a refresh re-renders the shell, the stream stays as it is.
  const [since] = useState(() => renderedAt - RENDER_MARGIN_MS);

  useEffect(() => {
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let firstOpen = true;
    let outageTimer: ReturnType<typeof setTimeout> | undefined;
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    let staleWhileHidden = false;

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

    const open = () => {
      const stream = new EventSource(firstOpen ? `/api/live?since=${since}` : '/api/live');
      firstOpen = false;
      source = stream;
      stream.onopen = () => {
        clearTimeout(outageTimer);
        setReconnecting(false);
        // Back after a drop: whatever changed meanwhile was not heard.
        if (failures > 0 && refreshable()) refresh();
        failures = 0;
      };
      stream.addEventListener('change', (event) => {
        if (dispatchChanges(JSON.parse((event as MessageEvent<string>).data) as LiveChanges)) refresh();
      });
      stream.addEventListener('resync', () => {
        if (refreshable()) refresh();
      });
      stream.addEventListener('end', () => {
        stopped = true;
        stream.close();
        refresh();
      });
      stream.onerror = () => {
        // Our own backoff instead of the browser's fixed retry, and the outage made visible.
        stream.close();
        if (stopped) return;
        if (failures === 0) outageTimer = setTimeout(() => setReconnecting(true), QUIET_OUTAGE_MS);
        const delay = Math.min(FIRST_RETRY_MS * 2 ** failures, MAX_RETRY_MS);
        failures += 1;
        retryTimer = setTimeout(open, delay);
      };
    };

    const openSoon = () => {
      retryTimer = setTimeout(open, OPEN_AFTER_LOAD_MS);
    };
    if (document.readyState === 'complete') openSoon();
    else window.addEventListener('load', openSoon, { once: true });
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(retryTimer);
      clearTimeout(outageTimer);
      clearTimeout(refreshTimer);
      window.removeEventListener('load', openSoon);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [router, since]);

  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed bottom-3 left-3 z-20">
      {reconnecting ? (
        <span className="rounded-full border border-zinc-300 bg-white px-3 py-1 text-xs text-zinc-700 shadow-sm">Reconnecting to live updates…</span>
      ) : null}
    </div>
  );
}
