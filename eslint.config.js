// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import apiAreas from './eslint/api-areas.js';
import { clockSelectors } from './eslint/clock-rule.js';

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

const moneySelectors = [
  { selector: "MemberExpression[property.name='toLocaleString']", message: 'Format numbers and won with src/domain/money.ts (formatNumber, won, wonSign).' },
  { selector: "MemberExpression[object.name='Intl'][property.name='NumberFormat']", message: 'Format numbers and won with src/domain/money.ts (formatNumber, won, wonSign).' },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'dist.*/**', 'dist-*/**', '.e2e/**', 'test-results/**', 'playwright-report/**', 'node_modules/**', '.astro/**', 'public/**', '.bench/**', '.data/**', '.scratch*/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...astro.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // The API envelope and third-party SDK answers are untyped JSON at the edges.
      '@typescript-eslint/no-explicit-any': 'off',
      // A promise nobody awaits loses its error: await it, or `void` it with a reason.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // Astro frontmatter is typed too: astro-eslint-parser builds its own TS program from `project` (it does not take `projectService`).
  { files: ['**/*.astro'], languageOptions: { parserOptions: { projectService: false, project: true } } },
  // Plain JS config files and the <script> blocks that eslint-plugin-astro extracts as virtual files have no type information.
  { files: ['**/*.{js,mjs,cjs}', '**/*.astro/*.{js,ts}'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx,astro,js,mjs}'],
    ignores: ['src/api/**', 'src/host/**', 'src/client/**'],
    rules: noImportOf('api|host', 'The site does not import server code; move shared types and rules to src/domain.'),
  },
  // src/client may import the API's route *types* (erased at build: the typed client is hc<ApiRoutes>), never its values.
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(src/)?api(/|$)', allowTypeImports: true, message: 'The site imports only the API\'s types (import type); move shared rules to src/domain.' },
            { regex: '^(\\.\\./)+(src/)?host(/|$)', message: 'The site does not import server code; move shared types and rules to src/domain.' },
          ],
        },
      ],
    },
  },
  { files: ['src/api/**'], rules: noImportOf('host', 'The API does not import the host; pass what it needs in createApp().') },
  // Inside the API, imports run down from the composition root through the business areas to shared infrastructure (eslint/api-areas.js).
  { files: ['src/api/**/*.ts'], plugins: { 'api-areas': apiAreas }, rules: { 'api-areas/areas': 'error' } },
  // One number and money format: only src/domain/money.ts groups digits (formatNumber, won, wonSign).
  {
    files: ['src/**/*.{ts,tsx,astro,js,mjs}'],
    ignores: ['src/domain/money.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...moneySelectors],
    },
  },
  // One clock in the API and the domain (eslint/clock-rule.js); the rule's options replace the block above's, so both lists.
  {
    files: ['src/api/**/*.ts', 'src/domain/**/*.ts'],
    ignores: ['src/api/jobs/clock.ts', 'src/domain/money.ts'],
    rules: { 'no-restricted-syntax': ['error', ...moneySelectors, ...clockSelectors] },
  },
  // Tests read untyped JSON answers (`await res.json()`) and their assertions are the check, so the no-unsafe-* family is off
  // there. Everything else stays on; floating promises especially: an un-awaited `expect(...).rejects` is a real bug.
  {
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // Playwright hooks take fixtures as a destructured first argument, often none: `async ({}, info) => …`.
  { files: ['tests/e2e/**'], rules: { 'no-empty-pattern': 'off' } },
);
