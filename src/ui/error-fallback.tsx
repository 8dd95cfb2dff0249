'use client';

import { BUILT_IN_ERRORS, type BuiltInErrorCode } from '@/engine/errors/catalogue';
import { buttonClass } from './button';
import { useHostname } from './host';

/** The digest Next.js gives errors thrown on the server; absent for errors thrown in the browser. */
export function errorDigest(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'digest' in error && typeof error.digest === 'string' && error.digest !== '') {
    return error.digest;
  }
  return null;
}

const UNAVAILABLE: BuiltInErrorCode = 'SERVICE_UNAVAILABLE';

function Unavailable({ retry }: { retry: () => void }) {
  const { title, message } = BUILT_IN_ERRORS.SERVICE_UNAVAILABLE;
  return (
    <div className="mx-auto my-16 max-w-2xl px-4 sm:px-6">
      <div role="alert" data-testid="service-unavailable" className="rounded-lg border border-zinc-200 bg-white p-6 shadow-xs">
        <h1 className="text-base font-semibold text-zinc-900">{title}</h1>
        <p className="mt-2 text-sm leading-relaxed text-zinc-800">{message}</p>
        <div className="mt-5">
          <button type="button" onClick={() => retry()} className={buttonClass('primary')}>
            Try again
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * The generic fallback for an unexpected error, word for word what Next.js's own fallback says.
 * Each sentence is built as one string so that it is one text node.
 */
export function ErrorFallback({ error, retry }: { error: unknown; retry: () => void }) {
  const host = useHostname();
  const digest = errorDigest(error);
  // The database could not be reached (src/engine/store/unavailable.ts gives that error its code
  // as digest): not a crash, so the catalogue's words rather than the generic fallback.
  if (digest === UNAVAILABLE) return <Unavailable retry={retry} />;
  const sentence = digest
    ? `Application error: a server-side exception has occurred while loading ${host} (see the server logs for more information).`
    : `Application error: a client-side exception has occurred while loading ${host} (see the browser console for more information).`;
  return (
    <div className="mx-auto my-16 max-w-2xl px-4 sm:px-6">
      <div role="alert" className="rounded-lg border border-zinc-200 bg-white p-6 shadow-xs">
        <p data-testid="error-fallback" className="text-sm leading-relaxed text-zinc-800">
          {sentence}
        </p>
        {digest ? (
          <p data-testid="error-digest" className="mt-2 font-mono text-xs text-zinc-500">
            {`Digest: ${digest}`}
          </p>
        ) : null}
        <div className="mt-5 flex items-center gap-3">
          <button type="button" onClick={() => retry()} className={buttonClass('primary')}>
            Try again
          </button>
          {/* A full load on purpose: after an unexpected error, start again from a clean page. */}
          <a href="/" className={buttonClass('ghost')}>
            Home
          </a>
        </div>
      </div>
    </div>
  );
}
