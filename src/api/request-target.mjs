// The one path every door of scripts/server.mjs decides on, and that Next.js then routes: the
// request's target normalised once, the way a URL parser reads it. Without it a door and Next.js
// can read one address two ways: `/_next/%2e%2e/articles/135` looks like a build file to a door
// testing the raw text, and is the article page to Next.js, which resolves the dot segments.
// The server replaces the request's URL with the normalised one, so both read the same text.
// Plain JavaScript: the server script imports it before anything is bundled.

/** Letters, digits and -._~ mean the same escaped or not (RFC 3986 §2.3): they are unescaped. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The normalised path and query of a request target, or null when the path cannot be read: a
 * malformed escape (`%zz`, a lone `%`) or escapes that are not UTF-8 (`%C0%AF`, a cut `%E0%A4%A`).
 * Dot segments are resolved (also `%2e` forms), backslashes are slashes, unreserved characters are
 * unescaped and other escapes upper-cased; `%2F` stays an escape, as Next.js keeps it inside one
 * segment. The query is kept as it came: Next.js reads a malformed one leniently.
 */
export function normalisedTarget(target) {
  const raw = String(target ?? '');
  let url;
  try {
    // Origin form (`/path?query`) is read under a fixed origin, so that `//x` stays a path; the
    // absolute form a proxy may send (`http://host/path`) keeps only its path and query.
    url = raw.startsWith('/') ? new URL(`http://target${raw}`) : /^https?:\/\//i.test(raw) ? new URL(raw) : null;
  } catch {
    return null;
  }
  if (url === null) return null;
  const path = url.pathname.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : escape.toUpperCase();
  });
  try {
    decodeURIComponent(path);
  } catch {
    return null;
  }
  return { path, search: url.search };
}
