/**
 * The import graph of src/ (type-only imports included): no circle, and each layer imports only
 * the ones below it. `npm run deps` (part of `npm test`) checks it.
 *
 *   engine (pure TypeScript)  <  api, server  <  app
 *
 * (Engine tests that drive a door are test kits, to be moved out of src/; ui/ still imports
 * server/ for the list page's controller, so its rule is not here yet.)
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle means two modules cannot be understood, tested or moved apart.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'engine-below-doors',
      severity: 'error',
      comment: 'The engine imports nothing of the doors, the pages or the UI.',
      from: { path: '^src/engine/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(api|server|app|ui|cli)/' },
    },
    {
      name: 'doors-below-pages',
      severity: 'error',
      comment: 'The API and the server helpers are below the pages (src/app), never the other way round.',
      from: { path: '^src/(api|server)/' },
      to: { path: '^src/app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
