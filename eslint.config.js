// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One-way imports. The site (pages, components, islands, scripts, client code) never imports
 * the server (src/api, src/host): what both need (types, rules, schemas) lives in src/domain.
 * The API never imports the host: the host starts the API, not the other way round.
 * @param {string} folders
 * @param {string} message
 * @returns {import('eslint').Linter.RulesRecord}
 */
const noImportOf = (folders, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ regex: `^(\\.\\./)+(src/)?(${folders})(/|$)`, message }] }],
});

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
  {
    files: ['src/**/*.{ts,tsx,astro,js,mjs}'],
    ignores: ['src/api/**', 'src/host/**'],
    rules: noImportOf('api|host', 'The site does not import server code; move shared types and rules to src/domain.'),
  },
  { files: ['src/api/**'], rules: noImportOf('host', 'The API does not import the host; pass what it needs in createApp().') },
  // Playwright hooks take fixtures as a destructured first argument, often none: `async ({}, info) => …`.
  { files: ['tests/e2e/**'], rules: { 'no-empty-pattern': 'off' } },
);
