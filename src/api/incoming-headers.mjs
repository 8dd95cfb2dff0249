// What a client may not tell the server. scripts/server.mjs rewrites every request's headers once,
// before either door sees them:
// - Next.js's internal headers are dropped: the framework sets them between its own parts (a
//   middleware subrequest, a matched route, a revalidation, a resumed render) and some make it skip
//   work or checks when they arrive from outside (x-middleware-subrequest: CVE-2025-29927).
//   What its client router legitimately sends (rsc, next-action, next-router-state-tree,
//   next-router-prefetch, next-router-segment-prefetch, next-url, x-deployment-id) is kept.
// - Ninefold's own internal headers (x-ninefold-*) are dropped, then set by the server itself.
// - A Content-Security-Policy request header is dropped: Next.js takes its script nonce from it,
//   so only the server's own may be there.
// - X-Forwarded-* (and Forwarded) are dropped when no proxy is trusted (TRUST_PROXY=0): a client
//   could otherwise choose the host and scheme the application believes it was reached at.
// Plain JavaScript: the server script imports it before anything is bundled.

/** Set by Next.js between its own parts only (checked against next 16.4: server/lib/server-ipc/utils.js and friends). */
const FRAMEWORK_HEADERS = new Set([
  'x-invoke-path',
  'x-invoke-query',
  'x-invoke-status',
  'x-invoke-output',
  'x-invoke-error',
  'x-matched-path',
  'x-now-route-matches',
  'x-nextjs-data',
  'x-nextjs-matched-path',
  'x-nextjs-rewrite',
  'x-nextjs-redirect',
  'x-nextjs-cache',
  'x-nextjs-postponed',
  'x-nextjs-prerender',
  'x-nextjs-stale-time',
  'x-nextjs-rewritten-path',
  'x-nextjs-rewritten-query',
  'x-nextjs-action-not-found',
  'x-next-resume-state-length',
  'next-resume',
  'x-next-cache-tags',
  'x-next-revalidated-tags',
  'x-next-revalidate-tag-token',
  'x-prerender-revalidate',
  'x-prerender-revalidate-if-generated',
  'x-action-redirect',
  'x-action-revalidated',
]);

/** Prefixes of the same: every middleware header (subrequest, rewrite, redirect, set-cookie, override...). */
const FRAMEWORK_PREFIXES = ['x-middleware-', 'x-next-revalidate', 'x-ninefold-'];

const REQUEST_CSP = new Set(['content-security-policy', 'content-security-policy-report-only']);

/** Believed only from proxies TRUST_PROXY declares. */
const FORWARDING_HEADERS = new Set(['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded']);

/** Whether a client's header (lower-case name) is dropped before the request is served. */
export function isRefusedRequestHeader(name, trustForwarding) {
  if (FRAMEWORK_HEADERS.has(name) || REQUEST_CSP.has(name)) return true;
  if (!trustForwarding && FORWARDING_HEADERS.has(name)) return true;
  return FRAMEWORK_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * Rewrites a Node request's headers in one pass: drops what isRefusedRequestHeader refuses and
 * adds the server's own (lower-case names), in both `rawHeaders` (what the API door reads) and
 * `headers` (what Next.js reads).
 */
export function rewriteRequestHeaders(req, trustForwarding, own) {
  const raw = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (isRefusedRequestHeader(name, trustForwarding)) delete req.headers[name];
    else raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  for (const [name, value] of Object.entries(own)) {
    raw.push(name, value);
    req.headers[name] = value;
  }
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
}
