import Link from 'next/link';
import type { ReactNode } from 'react';
import { buttonClass } from '../button';
import { NavLink } from './nav-link';

export interface NavItem {
  readonly href: string;
  readonly label: string;
  /** Places under this one (an entity's saved views). */
  readonly children?: readonly NavItem[];
}

/** The frame of every signed-in page: the app's name, its sections, the user and sign-out. */
export function AppShell({ title, items, user, signOutAction, children }: {
  title: string;
  items: readonly NavItem[];
  user: { readonly name: string; readonly email: string };
  signOutAction: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-10 border-b border-zinc-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2.5 sm:px-6">
          <Link href="/" className="flex items-center gap-2 rounded text-sm font-semibold text-zinc-900">
            <span aria-hidden="true" className="inline-block size-5 rounded bg-accent-600" />
            {title}
          </Link>
          <nav aria-label="Main" className="order-last -mx-1 w-full overflow-x-auto sm:order-none sm:w-auto">
            <ul className="flex items-center gap-1 px-1">
              {items.map((item) => (
                <li key={item.href}>
                  <NavLink href={item.href}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-3">
            <Link
              href="/account"
              title="Your account: name, password, API tokens"
              className="rounded-md px-2 py-1 text-right text-xs leading-tight hover:bg-zinc-100"
            >
              <span className="block font-medium text-zinc-900">{user.name || user.email}</span>
              {user.name ? <span className="hidden text-zinc-500 md:block">{user.email}</span> : null}
            </Link>
            <form action={signOutAction}>
              <button type="submit" className={buttonClass('secondary')} title={`Signed in as ${user.email}`}>
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        {children}
      </main>
    </div>
  );
}

/** The frame of pages for visitors who are not signed in (sign-in, setup, errors). */
export function PlainShell({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen flex-col">
      {children}
    </main>
  );
}
