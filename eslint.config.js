// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Only the API (src/server), scripts and tests may import src/server. Everything the site,
 * the islands and the build share with the API (types, rules, schemas) lives in src/domain.
 * @type {import('eslint').Linter.RulesRecord}
 */
const serverBoundary = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '(^|/)server(/|$)',
          message: 'Only src/server, scripts and tests import src/server; move shared types and rules to src/domain.',
        },
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: ['dist/**', 'dist.*/**', 'dist-*/**', '.e2e/**', 'test-results/**', 'playwright-report/**', 'node_modules/**', '.astro/**', 'public/**', '.bench/**', '.data/**', '.scratch*/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // The API envelope and third-party SDK answers are untyped JSON at the edges.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: ['src/**/*.{ts,tsx,astro,js,mjs}'], ignores: ['src/server/**'], rules: serverBoundary },
  // Playwright hooks take fixtures as a destructured first argument, often none: `async ({}, info) => …`.
  { files: ['tests/e2e/**'], rules: { 'no-empty-pattern': 'off' } },
);
