'use client';

import { ErrorFallback } from '@/ui/error-fallback';

/** Errors of any page below the root layout: the navigation shell stays around the fallback. */
export default function ErrorPage({ error, retry }: { error: unknown; reset: () => void; retry: () => void }) {
  return <ErrorFallback error={error} retry={retry} />;
}
