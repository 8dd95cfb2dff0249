// Plain JavaScript on purpose: a next.config.ts makes Next.js load its native SWC compiler at
// every start just to read this file (~100 ms and ~23 MB of the server's memory).
import { FORM_FILES_CEILING_BYTES, FORM_POST_CEILING_BYTES } from './src/api/action-body.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded from node_modules at run time, never bundled: PGlite ships WebAssembly and data
  // files it finds by path; jiti compiles the spec file chosen by NINEFOLD_SPEC at start.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'jiti'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  experimental: {
    // What the largest form of any spec may post (8 MiB). `npm start`'s server refuses a larger
    // body before Next.js reads it, and anything beyond the spec's own forms (a figure derived
    // from its fields' maxLength: src/server/form-post-limit.ts); this is only the limit behind
    // it. The CSV import is no server action: its file goes to a route with its own limit.
    serverActions: { bodySizeLimit: FORM_POST_CEILING_BYTES + FORM_FILES_CEILING_BYTES },
    // forbidden(): a page refused by ops answers 403 with the catalogue's words.
    authInterrupts: true,
    // Each route's code loads at its first request (~60 ms, once) rather than all of them
    // right after the start, where loading every page held up the first requests by ~150 ms
    // (bench: cold start) and kept pages nobody opens in memory.
    preloadEntriesOnStart: false,
  },
};

export default nextConfig;
