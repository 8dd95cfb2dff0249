'use client';

import { ErrorFallback } from '@/ui/error-fallback';
import './globals.css';

/** Replaces the root layout when it fails, so it brings its own document. */
export default function GlobalError({ error, retry }: { error: unknown; reset: () => void; retry: () => void }) {
  return (
    // The user's theme is unknown here (the layout that reads it failed): follow the device.
    <html lang="en" data-theme="system">
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased">
        <ErrorFallback error={error} retry={retry} />
      </body>
    </html>
  );
}
