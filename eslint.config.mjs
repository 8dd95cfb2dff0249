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
    // UI components render; they never reach the store.
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/engine/store/*', '@/engine/store'], message: 'UI must not import the store.' }] },
      ],
    },
  },
);
