import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.next/**', 'node_modules/**', '.data/**', 'tmp/**', 'next-env.d.ts', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The engine is pure TypeScript: the three doors depend on it, never the other way round.
    files: ['src/engine/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react/*', 'react-dom', 'react-dom/*'], message: 'The engine must not import React.' },
            { group: ['next', 'next/*'], message: 'The engine must not import Next.js.' },
            {
              group: ['@/app/*', '@/ui/*', '@/server/*', '../../app/*', '../../ui/*'],
              message: 'The engine must not import the doors or the UI.',
            },
          ],
        },
      ],
    },
  },
  {
    // Access is decided in one place: the compiled policy (src/engine/access/policy.ts) reads the
    // grants and the calls-only marks of the model, every other module asks it. A second reader
    // of the raw grants is a copy of the rules waiting to disagree with them.
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      'src/engine/access/**',
      'src/engine/spec/build.ts',
      'src/engine/spec/model.ts',
      'src/engine/spec/model-conditions.ts',
      'src/engine/spec/types.ts',
      'src/engine/spec/validate/**',
      '**/*.test.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'permissions', message: 'Ask the compiled policy (src/engine/access/policy.ts) instead of reading the grants.' },
        { property: 'writtenBy', message: 'Ask the compiled policy (writtenOnlyByCalls, fieldWrittenOnlyByCalls) instead.' },
      ],
    },
  },
  {
    // The built-in administrator's role is named once (ground/admin-role.ts; the policy's ADMIN_ROLE, isAdmin).
    // The access matrix's oracle (testing/access-matrix) spells it on its own: it shares no code with what it checks.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/engine/ground/admin-role.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Literal[value='admin']",
          message: "Use ADMIN_ROLE or isAdmin from src/engine/access/policy.ts instead of spelling 'admin'.",
        },
      ],
    },
  },
  {
    // UI components render what they are given; they never reach the store, nor the server code
    // that loads a page's data (a server action comes down as a prop or a context).
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/engine/store/*', '@/engine/store'], message: 'UI must not import the store.' },
            {
              group: ['@/server/*', '@/app/*', '@/cli/*', '../../server/*', '../server/*'],
              message: 'UI must not import the server or the pages.',
            },
          ],
        },
      ],
    },
  },
);
