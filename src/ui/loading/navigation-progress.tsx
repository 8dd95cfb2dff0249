'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';
import { endNavigationProgress, startNavigationProgress, useNavigationStarted } from './progress-store';

/** A navigation that never lands (the server is gone) stops showing after this long. */
const GIVE_UP_MS = 15_000;

/**
 * A thin bar at the top of the window while a client-side navigation or a filter change loads,
 * so that the old page staying put does not look like nothing happened. It starts on a click on
 * a link, or a GET form's submit, that the router took over (it prevented the browser's own
 * navigation; plain links and downloads are left to the browser) and ends when the address
 * changes. The bar shows only after a short delay (CSS), so quick navigations do not flash.
 */
export function NavigationProgress() {
  const started = useNavigationStarted();
  const pathname = usePathname();
  const search = useSearchParams().toString();

  useEffect(() => endNavigationProgress(), [pathname, search]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (link instanceof HTMLAnchorElement && !link.hasAttribute('download') && (link.target === '' || link.target === '_self'))
        startNavigationProgress(link.href);
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!event.defaultPrevented || !(form instanceof HTMLFormElement) || form.method !== 'get') return;
      const data = new FormData(form, event.submitter);
      const target = new URL(form.action, window.location.href);
      // Empty fields stay out of the address, as the list's filters leave them out.
      target.search = new URLSearchParams(
        [...data].filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
      ).toString();
      startNavigationProgress(target.href);
    };
    // Bubbling to the window: the router's handlers on the document have run (and prevented the default).
    window.addEventListener('click', onClick);
    window.addEventListener('submit', onSubmit);
    return () => {
      window.removeEventListener('click', onClick);
      window.removeEventListener('submit', onSubmit);
    };
  }, []);

  useEffect(() => {
    if (started === null) return;
    const timer = setTimeout(endNavigationProgress, GIVE_UP_MS);
    return () => clearTimeout(timer);
  }, [started]);

  if (started === null) {
    // A form busy with its own navigation (a list's filters applying, `aria-busy` while the new
    // list loads; it says so to screen readers itself) shows the same bar, by CSS alone.
    return (
      <div
        aria-hidden="true"
        className="nf-progress nf-progress-when-busy pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden"
      >
        <div className="nf-progress-bar h-full bg-accent-600" />
      </div>
    );
  }
  return (
    <div
      role="progressbar"
      aria-label="Loading the page"
      aria-busy="true"
      className="nf-progress pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden"
    >
      <div className="nf-progress-bar h-full bg-accent-600" />
    </div>
  );
}
