'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** "Sign in", coming back to the page the visitor is on; absent on the sign-in and set-up pages themselves. */
export function SignInLink() {
  const pathname = usePathname();
  if (pathname === '/sign-in' || pathname === '/setup') return null;
  const href = pathname && pathname !== '/' ? `/sign-in?next=${encodeURIComponent(pathname)}` : '/sign-in';
  return (
    <Link href={href} className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-900 hover:bg-zinc-50">
      Sign in
    </Link>
  );
}
