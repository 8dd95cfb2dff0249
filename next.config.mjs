// Plain JavaScript on purpose: a next.config.ts makes Next.js load its native SWC compiler at
// every start just to read this file (~100 ms and ~23 MB of the server's memory).

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded from node_modules at run time, never bundled: PGlite ships WebAssembly and data
  // files it finds by path; jiti compiles the spec file chosen by NINEFOLD_SPEC at start.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'jiti'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  experimental: {
    // The import page posts its CSV file to a server action when JavaScript is off: up to the
    // largest file an import takes (IMPORT_MAX_BYTES_CEILING, src/engine/limits.ts, 32 MiB)
    // plus the form's framing. Every other action's input is small and checked by ops.
    serverActions: { bodySizeLimit: '33mb' },
    // forbidden(): a page refused by ops answers 403 with the catalogue's words.
    authInterrupts: true,
    // Each route's code loads at its first request (~60 ms, once) rather than all of them
    // right after the start, where loading every page held up the first requests by ~150 ms
    // (bench: cold start) and kept pages nobody opens in memory.
    preloadEntriesOnStart: false,
  },
};

export default nextConfig;
