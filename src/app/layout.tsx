import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { signOutAction } from '@/server/actions/auth';
import { previewMarkdown } from '@/server/actions/markdown-preview';
import { searchPaletteRecords } from '@/server/actions/palette';
import { searchChoices } from '@/server/actions/choices';
import { ChoicesSearchProvider } from '@/ui/forms/choices-search';
import { chooseThemeAction } from '@/server/actions/theme';
import { getEngine } from '@/server/engine';
import { navigationFor } from '@/server/navigation';
import { requestHostname } from '@/server/request-host';
import { currentActor } from '@/server/session';
import { currentVisitor, visitorPlaces } from '@/server/viewer';
import { themeFor } from '@/server/theme';
import { BROWSER_ZONE_COOKIE } from '@/server/viewer-zone';
import { HostProvider } from '@/ui/host';
import { FocusOnNavigate } from '@/ui/keyboard/focus-on-navigate';
import { SkipLink } from '@/ui/keyboard/skip-link';
import { NavigationProgress } from '@/ui/loading/navigation-progress';
import { MarkdownPreviewProvider } from '@/ui/markdown-editor/preview-action';
import { AppShell, PlainShell } from '@/ui/shell/app-shell';
import { InboxBell } from '@/ui/inbox/inbox-bell';
import { PublicShell } from '@/ui/shell/public-shell';
import { ThemeToggle } from '@/ui/theme/theme-toggle';
import { BrowserZone } from '@/ui/time/browser-zone';
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
  // In the first byte: the page is painted in the user's theme with no script to correct it.
  const theme = await themeFor(actor);
  let content: ReactNode = <PlainShell>{children}</PlainShell>;
  const visitor = actor ? null : await currentVisitor();
  if (visitor) {
    // The spec lets visitors in: a shell of their own, with what the public may open.
    const engine = await getEngine();
    content = (
      <PublicShell title={engine.model.title} items={await visitorPlaces(engine, visitor)}>
        {children}
      </PublicShell>
    );
  } else if (actor) {
    const engine = await getEngine();
    const { model } = engine;
    const items = await navigationFor(engine, actor);
    content = (
      <AppShell
        title={model.title}
        items={items}
        user={{ name: actor.name, email: actor.email }}
        signOutAction={signOutAction}
        searchRecords={searchPaletteRecords}
        themeToggle={<ThemeToggle theme={theme} action={chooseThemeAction} compact />}
        bell={model.notifications.length > 0 ? <InboxBell unread={await engine.notifications.unread(actor)} /> : null}
      >
        {children}
      </AppShell>
    );
  }
  return (
    <html lang="en" data-theme={theme}>
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased">
        <SkipLink />
        <NavigationProgress />
        <FocusOnNavigate />
        <BrowserZone cookieName={BROWSER_ZONE_COOKIE} />
        <HostProvider hostname={hostname}>
          <MarkdownPreviewProvider preview={previewMarkdown}>
            <ChoicesSearchProvider search={searchChoices}>{content}</ChoicesSearchProvider>
          </MarkdownPreviewProvider>
        </HostProvider>
      </body>
    </html>
  );
}
