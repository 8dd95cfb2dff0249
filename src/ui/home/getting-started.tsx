import Link from 'next/link';
import { WidgetCard } from './widget-card';

/**
 * The next steps of a new administrator, on a home with no records yet: invite people, load demo
 * data, read the spec. It goes once any record exists (src/server/getting-started.ts decides).
 */
export function GettingStarted() {
  const link = 'font-medium text-accent-700 underline-offset-2 hover:underline';
  return (
    <WidgetCard title="Getting started" className="mb-6">
      <ol className="list-decimal space-y-2 pl-5 text-sm text-zinc-700">
        <li>
          <Link href="/admin/users" className={link}>
            Invite people
          </Link>{' '}
          with the roles they need: each gets a link to choose a password.
        </li>
        <li>
          Or load demo data: stop the server, run <code className="rounded bg-zinc-100 px-1">npm run ninefold -- seed --count 200</code>,
          and start it again.
        </li>
        <li>
          <Link href="/spec" className={link}>
            Read the spec
          </Link>
          : what this application does, point by point.
        </li>
      </ol>
    </WidgetCard>
  );
}
