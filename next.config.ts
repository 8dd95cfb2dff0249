import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
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
