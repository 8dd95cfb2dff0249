import Link from 'next/link';
import { SubmitButton } from '../forms/submit-button';

export interface InboxEntry {
  readonly id: number;
  readonly title: string;
  readonly text: string;
  readonly link: string;
  readonly read: boolean;
  /** Already written in the viewer's zone. */
  readonly when: { readonly iso: string; readonly text: string };
}

/** The signed-in user's notifications, newest first; unread ones marked, each with a link to its record and a Mark read form. */
export function InboxList({ entries, markRead }: { entries: readonly InboxEntry[]; markRead: (formData: FormData) => Promise<void> }) {
  if (entries.length === 0) return <p className="text-sm text-zinc-600">Nothing here yet.</p>;
  return (
    <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white" data-testid="inbox">
      {entries.map((entry) => (
        <li key={entry.id} className="flex items-start gap-3 px-4 py-3" data-unread={entry.read ? undefined : 'true'}>
          <span
            aria-hidden="true"
            className={`mt-1.5 inline-block size-2 shrink-0 rounded-full ${entry.read ? 'bg-transparent' : 'bg-accent-600'}`}
          />
          <div className="min-w-0 flex-1">
            <Link href={entry.link} className="text-sm font-medium text-zinc-900 hover:underline">
              {entry.read ? null : <span className="sr-only">Unread: </span>}
              {entry.title}
            </Link>
            {entry.text ? <p className="mt-0.5 text-sm text-zinc-600">{entry.text}</p> : null}
            <time dateTime={entry.when.iso} className="mt-0.5 block text-xs text-zinc-500">
              {entry.when.text}
            </time>
          </div>
          {entry.read ? null : (
            <form action={markRead}>
              <input type="hidden" name="id" value={entry.id} />
              <SubmitButton variant="secondary" pendingLabel="Marking…">
                Mark read
              </SubmitButton>
            </form>
          )}
        </li>
      ))}
    </ul>
  );
}
