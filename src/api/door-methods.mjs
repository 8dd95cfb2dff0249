// Which methods each kind of address takes, answered by scripts/server.mjs before any door: a
// method no door serves is a 405 with Allow in the catalogue's words, never a page rendered for a
// PUT, nor a 500 from a Request that cannot be built (the fetch standard refuses CONNECT, TRACE
// and TRACK: Next.js's route handlers and the API door both build one). /api/v1 answers every
// other method itself (405 with the Allow of that address).
// Plain JavaScript: the server script imports it before anything is bundled.

/** Methods that no Request can carry: refused everywhere. */
const UNREPRESENTABLE = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** What each kind of address (src/api/build-routes.mjs, plus `api`) takes. */
const ALLOWED = {
  // The REST API: every method it has a route for (OPTIONS says which, per address).
  api: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  // A page is read and its forms are posted (server actions); a route handler takes what it exports.
  page: ['GET', 'HEAD', 'POST', 'OPTIONS'],
  route: ['GET', 'HEAD', 'POST', 'OPTIONS'],
  file: ['GET', 'HEAD', 'OPTIONS'],
};

/**
 * What the door answers for `method` at an address of `kind`: null to go on, `{ status: 405, allow }`
 * to refuse, `{ status: 204, allow }` for OPTIONS where the door itself knows the answer (pages and
 * files; /api/v1 and route handlers answer it themselves).
 */
export function methodAnswer(method, kind) {
  const name = String(method ?? '').toUpperCase();
  const allowed = ALLOWED[kind] ?? ALLOWED.page;
  const allow = allowed.join(', ');
  // The API answers any other method itself, with the Allow of the address asked for.
  if (UNREPRESENTABLE.has(name) || (kind !== 'api' && !allowed.includes(name))) return { status: 405, allow };
  if (name === 'OPTIONS' && (kind === 'page' || kind === 'file')) return { status: 204, allow };
  return null;
}
