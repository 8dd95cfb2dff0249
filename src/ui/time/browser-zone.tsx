'use client';

import { useEffect } from 'react';

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Tells the server the browser's time zone (cookie nf_zone, read by src/server/viewer-zone.ts),
 * so that the next page shows times where the user is. Renders nothing; without JavaScript the
 * spec's zone (or the one chosen on the account page) is used.
 */
export function BrowserZone({ cookieName }: { cookieName: string }) {
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const current = document.cookie
      .split('; ')
      .find((pair) => pair.startsWith(`${cookieName}=`))
      ?.slice(cookieName.length + 1);
    if (!zone || current === encodeURIComponent(zone)) return;
    const secure = window.location.protocol === 'https:' ? '; secure' : '';
    document.cookie = `${cookieName}=${encodeURIComponent(zone)}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax${secure}`;
  }, [cookieName]);
  return null;
}
