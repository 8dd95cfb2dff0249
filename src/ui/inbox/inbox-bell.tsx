import Link from 'next/link';

/** The header's bell: a link to /inbox with the unread count (server-rendered; pages refresh it as they re-render). */
export function InboxBell({ unread }: { unread: number }) {
  const label = unread === 0 ? 'Notifications: none unread' : `Notifications: ${unread} unread`;
  return (
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
      {unread > 0 ? (
        <span
          className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-accent-600 px-1 text-center text-[10px] leading-4 font-semibold text-white"
          data-testid="inbox-count"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}
