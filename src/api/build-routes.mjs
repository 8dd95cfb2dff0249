// What the build serves at a path, read once at start from Next.js's own tables, so that the doors
// of scripts/server.mjs tell its routes apart as Next.js will:
// - the build's files (`.next/static`, `public/`, and route handlers prerendered into files such
//   as /icon.svg): only these are exempt from the visitor and outage doors; a made-up
//   `/_next/...` or `/x.css` address is a page request like any other (it renders the 404 page);
// - route handlers (`route.ts`: they read their own bodies) apart from pages, whose POSTs Next.js
//   reads as server actions (the action door checks those bodies first).
// Routes are matched as Next.js matches them: static paths first, then its dynamic routes in the
// order it sorted them (routes-manifest.json). Checked against next 16.4; should these tables
// change shape, nothing is known here: every path is a page and no file is exempt.
// Plain JavaScript: the server script imports it before anything is bundled.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every file under `dir`, as the URL paths under `prefix` that Next.js serves them at. */
function filePaths(dir, prefix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).map(encodeURIComponent).join('/'))
    .map((relative) => `${prefix}/${relative}`);
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The build's routes and files; null when its tables cannot be read. */
export function readBuildRoutes(root, distDir = '.next') {
  const dist = path.join(root, distDir);
  try {
    const routes = readJson(path.join(dist, 'routes-manifest.json'));
    const appPaths = readJson(path.join(dist, 'app-path-routes-manifest.json'));
    const prerendered = readJson(path.join(dist, 'prerender-manifest.json'));
    // "/[plural]/import/run/route" → "/[plural]/import/run": the pages' and route handlers' paths.
    const handlers = new Set(
      Object.entries(appPaths)
        .filter(([entry]) => entry.endsWith('/route'))
        .map(([, route]) => route),
    );
    const kindOf = (page) => (handlers.has(page) ? 'route' : 'page');
    const files = new Set([...filePaths(path.join(dist, 'static'), '/_next/static'), ...filePaths(path.join(root, 'public'), '')]);
    for (const route of Object.keys(prerendered.routes ?? {})) if (handlers.has(route)) files.add(route);
    return {
      files,
      statics: new Map(routes.staticRoutes.map((route) => [route.page, kindOf(route.page)])),
      dynamics: routes.dynamicRoutes.map((route) => ({ regex: new RegExp(route.regex), kind: kindOf(route.page) })),
    };
  } catch {
    return null;
  }
}

/**
 * What a normalised path is: `file` (one of the build's files), `route` (a route handler), or
 * `page` (a page, or no route at all: Next.js renders its 404 page).
 */
export function routeKind(routes, pathname) {
  if (routes === null) return 'page';
  if (routes.files.has(pathname)) return 'file';
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const exact = routes.statics.get(trimmed);
  if (exact !== undefined) return exact;
  return routes.dynamics.find((route) => route.regex.test(pathname))?.kind ?? 'page';
}
