import Link from 'next/link';
import type { ReactNode } from 'react';
import { SavedViewsNav } from '../list/saved-views-nav';
import { SubmitButton } from '../forms/submit-button';
import { KeyboardShortcuts } from '../keyboard/keyboard-shortcuts';
import type { SearchRecords } from '../palette/palette-groups';
import { LiveConnection } from '../live/live-connection';
import { PaletteButton } from '../palette/palette-button';
import { NavLinks } from './nav-link';

export interface NavItem {
  readonly href: string;
  readonly label: string;
  /** Places under this one (an entity's saved views). */
  readonly children?: readonly NavItem[];
}

/** The frame of every signed-in page: the app's name, its sections, the user and sign-out. */
export function AppShell({
  title,
  items,
  user,
  signOutAction,
  searchRecords,
  themeToggle,
  bell,
  children,
}: {
  title: string;
  items: readonly NavItem[];
  user: { readonly name: string; readonly email: string };
  signOutAction: () => Promise<void>;
  /** The command palette's record search (a server action). */
  searchRecords: SearchRecords;
  /** System / Light / Dark (src/ui/theme). */
  themeToggle: ReactNode;
  /** The notifications bell (src/ui/inbox), where the spec declares notifications. */
  bell?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      {/* Sticky from `sm` up; on a phone the header (whose navigation may take a few lines) scrolls away with the page.
          Opaque, so that its text keeps its contrast over whatever scrolls beneath it. */}
      {/* Two rows at every width: the app and the user's tools, then the navigation across the whole
          width, so that a spec's many entries stay on one tidy line on a desktop instead of
          wrapping beside the tools. */}
      <header className="z-10 border-b border-zinc-200 bg-white sm:sticky sm:top-0">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 sm:px-6">
          <Link href="/" className="flex min-h-8 items-center gap-2 rounded text-sm font-semibold text-zinc-900">
            <span aria-hidden="true" className="inline-block size-5 rounded bg-accent-600" />
            {title}
          </Link>
          {/* On a phone the tools may take two lines (the bell made one too wide for 360 px) rather than widen the page. */}
          <div className="ml-auto flex flex-wrap items-center justify-end gap-x-3 gap-y-2">
            <PaletteButton />
            {bell}
            {themeToggle}
            <Link
              href="/account"
              title="Your account: name, password, API tokens"
              className="rounded-md px-2 py-1 text-right text-xs leading-tight hover:bg-zinc-100"
            >
              <span className="block font-medium text-zinc-900">{user.name || user.email}</span>
              {user.name ? <span className="hidden text-zinc-500 md:block">{user.email}</span> : null}
            </Link>
            <form action={signOutAction}>
              <SubmitButton variant="secondary" title={`Signed in as ${user.email}`} pendingLabel="Signing out…">
                Sign out
              </SubmitButton>
            </form>
          </div>
        </div>
        {/* Entries wrap onto more lines rather than scroll out of sight: on a phone every one is on screen. */}
        <nav aria-label="Main" className="border-t border-zinc-100">
          <NavLinks items={items} className="mx-auto flex max-w-6xl flex-wrap items-center gap-1 px-2 py-1 sm:px-4" />
        </nav>
        <SavedViewsNav
          sections={items.flatMap((item) =>
            item.children?.length ? [{ href: item.href, label: item.label, children: item.children }] : [],
          )}
        />
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none sm:px-6">
        {children}
      </main>
      <KeyboardShortcuts places={items} searchRecords={searchRecords} />
      {/* Pages refresh in place when records they show change (src/ui/live). */}
      <LiveConnection renderedAt={Date.now()} />
    </div>
  );
}

/** The frame of pages for visitors who are not signed in (sign-in, setup, errors). */
export function PlainShell({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="flex min-h-screen flex-col focus:outline-none">
      {children}
    </main>
  );
}
