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
  // forbidden(): a page refused by ops answers 403 with the catalogue's words.
  experimental: { authInterrupts: true },
};

export default nextConfig;
