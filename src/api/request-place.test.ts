import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBuildRoutes, routeKind } from './build-routes.mjs';
import { methodAnswer } from './door-methods.mjs';
import { normalisedTarget } from './request-target.mjs';

/*
 * Where scripts/server.mjs finds a request goes, decided once per request: its target normalised
 * (the path every door and Next.js then read), what the build serves there, and which methods it takes.
 */

describe('the normalised target', () => {
  it('resolves dot segments, escaped or not, and backslashes, as Next.js does before routing', () => {
    expect(normalisedTarget('/_next/%2e%2e/articles/135')).toEqual({ path: '/articles/135', search: '' });
    expect(normalisedTarget('/_next/%2E%2e/enquiries/new?x=1')).toEqual({ path: '/enquiries/new', search: '?x=1' });
    expect(normalisedTarget('/_next/static/../../tickets')).toEqual({ path: '/tickets', search: '' });
    expect(normalisedTarget('/_next/.%2e/tickets')?.path).toBe('/tickets');
    expect(normalisedTarget('/_next\\..\\tickets')?.path).toBe('/tickets');
    expect(normalisedTarget('/api/v1/%2e%2e/health')?.path).toBe('/api/health');
  });

  it('unescapes what means the same escaped or not, and keeps an escaped slash inside its segment', () => {
    expect(normalisedTarget('/api/%68ealth')?.path).toBe('/api/health');
    expect(normalisedTarget('/%5Fnext/static/x.js')?.path).toBe('/_next/static/x.js');
    expect(normalisedTarget('/tickets%2F1')?.path).toBe('/tickets%2F1');
    expect(normalisedTarget('/tickets/caf%c3%a9')?.path).toBe('/tickets/caf%C3%A9');
    // `//x` is a path here, not another host.
    expect(normalisedTarget('//evil.example/x')?.path).toBe('//evil.example/x');
    // The absolute form a proxy may send keeps its path and query.
    expect(normalisedTarget('http://other.example/tickets?q=1')).toEqual({ path: '/tickets', search: '?q=1' });
  });

  it('is null for a path that cannot be read: a malformed escape or escapes that are not UTF-8', () => {
    for (const target of ['/tickets/%zz', '/%', '/%C0%AF', '/articles/135/%E0%A4%A', '/a%2', '*', 'tickets'])
      expect(normalisedTarget(target), target).toBeNull();
    // The query is Next.js's to read, leniently.
    expect(normalisedTarget('/tickets?q=%zz')).toEqual({ path: '/tickets', search: '?q=%zz' });
  });
});

/** A build directory with Next.js's tables as `next build` writes them (the parts read here). */
function fakeBuild(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'nf-build-routes-'));
  const dist = path.join(root, '.next');
  mkdirSync(path.join(dist, 'static', 'chunks'), { recursive: true });
  writeFileSync(path.join(dist, 'static', 'chunks', 'app-1a2b.js'), '');
  writeFileSync(
    path.join(dist, 'routes-manifest.json'),
    JSON.stringify({
      staticRoutes: [{ page: '/' }, { page: '/sign-in' }, { page: '/api/health' }, { page: '/icon.svg' }],
      // In Next.js's order: static segments before dynamic ones.
      dynamicRoutes: [
        { page: '/api/v1/[...path]', regex: '^/api/v1/(.+?)(?:/)?$' },
        { page: '/[plural]', regex: '^/([^/]+?)(?:/)?$' },
        { page: '/[plural]/import/run', regex: '^/([^/]+?)/import/run(?:/)?$' },
        { page: '/[plural]/[id]', regex: '^/([^/]+?)/([^/]+?)(?:/)?$' },
        { page: '/[plural]/[id]/[...rest]', regex: '^/([^/]+?)/([^/]+?)/(.+?)(?:/)?$' },
      ],
    }),
  );
  writeFileSync(
    path.join(dist, 'app-path-routes-manifest.json'),
    JSON.stringify({
      '/page': '/',
      '/sign-in/page': '/sign-in',
      '/api/health/route': '/api/health',
      '/icon.svg/route': '/icon.svg',
      '/api/v1/[...path]/route': '/api/v1/[...path]',
      '/[plural]/page': '/[plural]',
      '/[plural]/import/run/route': '/[plural]/import/run',
      '/[plural]/[id]/page': '/[plural]/[id]',
      '/[plural]/[id]/[...rest]/page': '/[plural]/[id]/[...rest]',
    }),
  );
  writeFileSync(path.join(dist, 'prerender-manifest.json'), JSON.stringify({ routes: { '/icon.svg': {} } }));
  return root;
}

describe('what the build serves at a path', () => {
  const routes = readBuildRoutes(fakeBuild());

  it('exempts only the build’s own files: a made-up address that looks like one is a page', () => {
    expect(routeKind(routes, '/_next/static/chunks/app-1a2b.js')).toBe('file');
    expect(routeKind(routes, '/icon.svg')).toBe('file');
    for (const made of ['/_next/static/chunks/nothing.js', '/_next/anything', '/tickets/1/style.css', '/favicon.ico'])
      expect(routeKind(routes, made), made).toBe('page');
  });

  it('tells route handlers from pages as Next.js matches them (static segments first)', () => {
    expect(routeKind(routes, '/api/health')).toBe('route');
    expect(routeKind(routes, '/tickets/import/run')).toBe('route');
    expect(routeKind(routes, '/tickets/import/run/')).toBe('route');
    expect(routeKind(routes, '/tickets%2Fx/import/run')).toBe('route');
    expect(routeKind(routes, '/tickets/1')).toBe('page');
    expect(routeKind(routes, '/tickets/1/history')).toBe('page');
    expect(routeKind(routes, '/sign-in')).toBe('page');
  });

  it('knows nothing without the build’s tables: every path is a page, no file exempt', () => {
    const none = readBuildRoutes(mkdtempSync(path.join(tmpdir(), 'nf-no-build-')));
    expect(none).toBeNull();
    expect(routeKind(none, '/_next/static/chunks/app-1a2b.js')).toBe('page');
  });
});

describe('the methods an address takes', () => {
  it('refuses what no Request can carry everywhere, with Allow', () => {
    for (const kind of ['api', 'page', 'route', 'file'] as const) {
      for (const method of ['TRACE', 'TRACK', 'CONNECT'])
        expect(methodAnswer(method, kind), `${method} ${kind}`).toMatchObject({ status: 405, allow: expect.stringContaining('GET') });
    }
    expect(methodAnswer('TRACE', 'api')?.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  });

  it('takes GET, HEAD and POST on pages (their forms), answers OPTIONS, and refuses the rest', () => {
    for (const method of ['GET', 'HEAD', 'POST']) expect(methodAnswer(method, 'page')).toBeNull();
    expect(methodAnswer('OPTIONS', 'page')).toEqual({ status: 204, allow: 'GET, HEAD, POST, OPTIONS' });
    for (const method of ['PUT', 'PATCH', 'DELETE', 'PROPFIND', 'MKCOL'])
      expect(methodAnswer(method, 'page')).toEqual({ status: 405, allow: 'GET, HEAD, POST, OPTIONS' });
    expect(methodAnswer('POST', 'file')).toEqual({ status: 405, allow: 'GET, HEAD, OPTIONS' });
  });

  it('leaves every other method to the API and OPTIONS to route handlers: they know their own', () => {
    for (const method of ['GET', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND']) expect(methodAnswer(method, 'api')).toBeNull();
    expect(methodAnswer('OPTIONS', 'route')).toBeNull();
  });
});
