'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';

/** How long to wait for a heading that streams in after the address changed. */
const HEADING_WAIT_MS = 5000;

function focusHeading(heading: HTMLElement): void {
  // Focusable by script only: a heading is not a stop for Tab.
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

/**
 * After a client-side navigation to another page, the focus moves to the new page's main
 * heading, as a full page load would start the reader at the top: a screen reader announces
 * where they are and Tab continues from there. Not on the first load, not on a change of the
 * query only (a filter keeps its focus), and not while a dialog is open.
 */
export function FocusOnNavigate() {
  const pathname = usePathname();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    if (document.querySelector('dialog[open]')) return;
    const main = document.getElementById('main');
    if (!main) return;
    const heading = main.querySelector<HTMLElement>('h1');
    if (heading) {
      focusHeading(heading);
      return;
    }
    // The page's content may still be streaming: take its heading when it comes.
    const observer = new MutationObserver(() => {
      const late = main.querySelector<HTMLElement>('h1');
      if (!late) return;
      observer.disconnect();
      if (document.activeElement === document.body || document.activeElement === null) focusHeading(late);
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname]);
  return null;
}
