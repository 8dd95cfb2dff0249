/**
 * The import graph of src/ (type-only imports included): no circle, and each layer imports only
 * the ones below it. `npm run deps` (part of `npm test`) checks it.
 *
 *   engine (pure TypeScript)  <  ui  <  server  <  app;   engine  <  api  <  server
 *
 * (Engine tests that drive a door are test kits, to be moved out of src/.)
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
      name: 'ui-renders-only',
      severity: 'error',
      comment: 'The UI renders what the pages give it: it imports neither the server code that loads their data nor the pages.',
      from: { path: '^src/ui/' },
      to: { path: '^src/(server|app|cli)/' },
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
