'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { onUnread } from '../live/unread';

const labelOf = (unread: number) => (unread === 0 ? 'Notifications: none unread' : `Notifications: ${unread} unread`);

/**
 * The header's bell (a client leaf: only it follows the stream): a link to /inbox with the unread count, rendered by the server and kept
 * current by the live stream (a count only: src/server/live/hub.ts). A count that rises while the
 * page is open is announced to screen readers; a server render (a refresh, an action) takes over.
 */
export function InboxBell({ unread }: { unread: number }) {
  const [rendered, setRendered] = useState(unread);
  const [count, setCount] = useState(unread);
  const [announcement, setAnnouncement] = useState('');
  // A new server render (after marking read, a refresh) is the newest word.
  if (rendered !== unread) {
    setRendered(unread);
    setCount(unread);
  }
  useEffect(
    () =>
      onUnread((next) => {
        if (next > count) setAnnouncement(next === 1 ? 'You have 1 unread notification' : `You have ${next} unread notifications`);
        setCount(next);
      }),
    [count],
  );
  const label = labelOf(count);
  return (
    <>
      <Link
        href="/inbox"
        title={label}
        aria-label={label}
        className="relative rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100"
        data-testid="inbox-bell"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
          <path d="M10 2a5 5 0 0 0-5 5v2.6L3.3 13a.75.75 0 0 0 .65 1.1h12.1a.75.75 0 0 0 .65-1.1L15 9.6V7a5 5 0 0 0-5-5Zm0 16a2.5 2.5 0 0 1-2.45-2h4.9A2.5 2.5 0 0 1 10 18Z" />
        </svg>
        {count > 0 ? (
          <span
            className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-accent-600 px-1 text-center text-[10px] leading-4 font-semibold text-white"
            data-testid="inbox-count"
          >
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </Link>
      <span role="status" aria-live="polite" className="sr-only">
        {announcement}
      </span>
    </>
  );
}
