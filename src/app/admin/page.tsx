import type { Metadata } from 'next';
import Link from 'next/link';
import { getEngine } from '@/server/engine';
import { requireAdmin } from '@/server/session';
import { PageHeader } from '@/ui/page-header';

export const metadata: Metadata = { title: 'Administration' };

/** The administration area: accounts, and the webhooks' deliveries when the spec declares webhooks. */
export default async function AdminPage() {
  await requireAdmin('/admin');
  const engine = await getEngine();
  const pages = [
    { href: '/admin/users', title: 'Users', text: 'Who can sign in, with which roles, and invitations.' },
    ...(engine.model.webhooks.length > 0
      ? [{ href: '/admin/webhooks', title: 'Webhooks', text: 'Every delivery to other systems, its attempts, and sending one again.' }]
      : []),
  ];
  return (
    <div>
      <PageHeader title="Administration" />
      <ul className="space-y-3">
        {pages.map((page) => (
          <li key={page.href}>
            <Link href={page.href} className="font-medium text-accent-700 underline">
              {page.title}
            </Link>
            <p className="text-sm text-zinc-600">{page.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
