'use client';

import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';

/** The request's hostname, passed down by the root layout so server HTML already names it. */
const HostContext = createContext('');

export function HostProvider({ hostname, children }: { hostname: string; children: ReactNode }) {
  return <HostContext value={hostname}>{children}</HostContext>;
}

const noSubscription = () => () => {};

/**
 * `window.location.hostname` in the browser; on the server (and while hydrating) the hostname
 * the root layout read from the request, so both renders agree.
 */
export function useHostname(): string {
  const fromRequest = useContext(HostContext);
  return useSyncExternalStore(
    noSubscription,
    () => window.location.hostname,
    () => fromRequest,
  );
}
