import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { mayOpenRoute } from '@/engine/spec/screens/routes';
import { signOutAction } from '@/server/actions/auth';
import { getEngine } from '@/server/engine';
import { requestHostname } from '@/server/request-host';
import { currentActor } from '@/server/session';
import { HostProvider } from '@/ui/host';
import { AppShell, PlainShell } from '@/ui/shell/app-shell';
import './globals.css';

// Every page is rendered per request: the build never opens the database.
export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  await connection();
  const { model } = await getEngine();
  return {
    title: { default: model.title, template: `%s · ${model.title}` },
    ...(model.summary ? { description: model.summary } : {}),
  };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const hostname = requestHostname(await headers());
  const actor = await currentActor();
  let content: ReactNode = <PlainShell>{children}</PlainShell>;
  if (actor) {
    const { model, ops } = await getEngine();
    const items = [
      ...model.routes.filter((route) => route.navigation && mayOpenRoute(route, actor.roles)).map((route) => ({ href: route.path, label: route.title })),
      ...model.navigation
        .filter((entity) => ops.access(actor, entity.name).actions.list)
        .map((entity) => ({ href: `/${entity.plural}`, label: entity.pluralLabel })),
      { href: '/spec', label: 'Spec' },
      { href: '/api/docs', label: 'API' },
      ...(actor.roles.includes('admin') ? [{ href: '/admin/users', label: 'Users' }] : []),
    ];
    content = (
      <AppShell title={model.title} items={items} user={{ name: actor.name, email: actor.email }} signOutAction={signOutAction}>
        {children}
      </AppShell>
    );
  }
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased">
        <HostProvider hostname={hostname}>{content}</HostProvider>
      </body>
    </html>
  );
}
