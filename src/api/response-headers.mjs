// The security headers of every response of `npm start` (pages, route handlers, /api/v1, static
// files), set by scripts/server.mjs before either door answers.
//
// Content-Security-Policy: scripts run only with this response's nonce (Next.js puts it on its own
// scripts when the request carries the same policy: see incoming-headers.mjs) or when a script so
// trusted loads them ('strict-dynamic': the client router's chunks); no inline script, no
// `javascript:` URL, no eval. Styles keep 'unsafe-inline' (Next.js and React write style
// attributes; a style cannot run code). Images only from this site and data: URLs: a picture in a
// user's Markdown that points elsewhere is not fetched, so reading a record never tells another
// server who read it and when. No plugins, no <base> elsewhere, forms post only here, and no site
// may frame a page (clickjacking): frame-ancestors, and X-Frame-Options for older browsers.
// Plain JavaScript: the server script imports it before anything is bundled.
import { randomBytes } from 'node:crypto';

/** A fresh nonce per response: 128 random bits, base64 (what Next.js's nonce pattern accepts). */
export function newNonce() {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(nonce) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** One year, subdomains included: sent only over HTTPS (browsers ignore it over http). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers for one response, with its policy (contentSecurityPolicy). Referrer-Policy same-origin: the addresses of an internal
 * application (record ids, searches) are not told to the sites its users follow links to, and
 * requests to itself keep a full Referer (the theme form returns to the page it was sent from).
 */
export function securityHeaders(policy, https) {
  return {
    'content-security-policy': policy,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    ...(https ? { 'strict-transport-security': HSTS } : {}),
  };
}
