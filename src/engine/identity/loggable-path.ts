/**
 * A request path as a log may show it: no query string, no invitation token (log-secrets.ts).
 * No imports: the instrumentation hook that uses it may be bundled for any runtime.
 */
export function loggablePath(path: string): string {
  const query = path.indexOf('?');
  return (query === -1 ? path : path.slice(0, query)).replace(/\/invite\/[^/]+/, '/invite/[token]');
}
