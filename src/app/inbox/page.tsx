import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { markAllInboxReadAction, markInboxReadAction } from '@/server/actions/inbox';
import { getEngine } from '@/server/engine';
import { requireActor } from '@/server/session';
import { viewerZone } from '@/server/viewer-zone';
import { formatDateTime } from '@/ui/format';
import { InboxList } from '@/ui/inbox/inbox-list';
import { PageHeader } from '@/ui/page-header';
import { SubmitButton } from '@/ui/forms/submit-button';

export const metadata: Metadata = { title: 'Notifications' };

/** The signed-in user's notifications (src/engine/notify/inbox.ts): their own, newest first. */
export default async function InboxPage({ searchParams }: { searchParams: Promise<{ cursor?: string }> }) {
  const actor = await requireActor('/inbox');
  const engine = await getEngine();
  if (engine.model.notifications.length === 0) notFound();
  const { cursor } = await searchParams;
  const [page, unread, zone] = await Promise.all([
    engine.notifications.inbox(actor, { cursor: typeof cursor === 'string' ? cursor : undefined }),
    engine.notifications.unread(actor),
    viewerZone(),
  ]);
  const entries = page.items.map((item) => ({
    id: item.id,
    title: item.title,
    text: item.text,
    link: item.link,
    read: item.read,
    when: formatDateTime(item.createdAt, zone) ?? { iso: item.createdAt.toISOString(), text: item.createdAt.toISOString() },
  }));
  return (
    <div className="space-y-6">
      <PageHeader title="Notifications" description={unread === 0 ? 'Nothing unread.' : `${unread} unread.`} />
      {unread > 0 ? (
        <form action={markAllInboxReadAction}>
          <SubmitButton variant="secondary" pendingLabel="Marking…">
            Mark all read
          </SubmitButton>
        </form>
      ) : null}
      <InboxList entries={entries} markRead={markInboxReadAction} />
      {page.nextCursor ? (
        <a href={`/inbox?cursor=${encodeURIComponent(page.nextCursor)}`} className="text-sm text-accent-700 hover:underline">
          Older
        </a>
      ) : null}
    </div>
  );
}
