import Link from 'next/link';
import type { ReactNode } from 'react';
import type { NavItem } from './app-shell';
import { NavLinks } from './nav-link';
import { SignInLink } from './sign-in-link';

/**
 * The frame of pages for visitors who are not signed in, where the spec lets them in (the
 * built-in `public` role): the app's name, what the public may open, and a way to sign in. No
 * account tools, no palette, no live updates (visitors have no stream; pages are read as sent).
 */
export function PublicShell({ title, items, children }: { title: string; items: readonly NavItem[]; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 sm:px-6">
          <Link href="/" className="flex min-h-8 items-center gap-2 rounded text-sm font-semibold text-zinc-900">
            <span aria-hidden="true" className="inline-block size-5 rounded bg-accent-600" />
            {title}
          </Link>
          {items.length > 0 ? (
            <nav aria-label="Main" className="min-w-0">
              <NavLinks items={items} className="flex flex-wrap items-center gap-1" />
            </nav>
          ) : null}
          <div className="ml-auto flex items-center">
            <SignInLink />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-8 focus:outline-none sm:px-6">
        {children}
      </main>
    </div>
  );
}
