'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '../cn';

/** A navigation link that marks itself as the current page (`aria-current`) for its section. */
export function NavLink({ href, children }: { href: string; children: string }) {
  const pathname = usePathname();
  const current = pathname === href || (href !== '/' && pathname.startsWith(`${href}/`));
  return (
    <Link
      href={href}
      aria-current={current ? 'page' : undefined}
      className={cn(
        'rounded-md px-2 py-1.5 text-sm font-medium whitespace-nowrap transition-colors',
        current ? 'bg-zinc-100 text-zinc-900' : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900',
      )}
    >
      {children}
    </Link>
  );
}

/** The entries of a main navigation, each a NavLink (both shells list them the same way). */
export function NavLinks({ items, className }: { items: readonly { readonly href: string; readonly label: string }[]; className: string }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.href}>
          <NavLink href={item.href}>{item.label}</NavLink>
        </li>
      ))}
    </ul>
  );
}
