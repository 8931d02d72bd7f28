// Flat config: typescript-eslint with type information, so floating promises are caught.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'bench/results/**',
      'test/fixtures/rules/**',
      'test/fixtures/red-team/**',
      'test/fixtures/red-team-blind/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    // Regexes that can meet untrusted text must not re-scan a run from each start position
    // (super-linear move) or split one run between two quantifiers (super-linear backtracking):
    // docs/decisions/0001-linear-time-scanning.md. Patterns built at run time are checked by
    // src/scanner/rules/redos.spec.ts with the same analyser.
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-move': ['error', { ignorePartial: false }],
      'regexp/no-super-linear-backtracking': 'error',
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
