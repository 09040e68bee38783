import { getViteConfig } from 'astro/config';
import { defineConfig } from 'vitest/config';

// Files that build the whole site: once is enough, so only on the PGlite run. Left out of `api-pg`
// rather than skipped in it, so no worker starts there only to load them.
const PGLITE_ONLY = ['tests/host/pipeline.test.ts', 'tests/host/embedded-statistics.test.ts', 'tests/host/site-build.test.ts', 'tests/host/incremental-publish.test.ts'];

// `api-pg` runs the same API tests against PostgreSQL when TEST_DATABASE_URL is set, and fails any that
// sends a query to a client still running one (tests/api/pg-one-query-at-a-time.ts).
const pg = process.env.TEST_DATABASE_URL
  ? [{ test: { name: 'api-pg', include: ['tests/api/**/*.test.ts', 'tests/host/**/*.test.ts'], exclude: PGLITE_ONLY, env: { TEST_DB: 'postgres' }, setupFiles: ['tests/api/pg-one-query-at-a-time.ts'], testTimeout: 30_000, hookTimeout: 60_000 } }]
  : [];

export default defineConfig({
  test: {
    // Vitest's default on this 2-core machine is one worker (cores − 1): the API files then ran one
    // after another for 16 minutes of CI while most of them wait on PostgreSQL, a child process or a
    // timer. Each file has its own database, ports and folders (tests/api/helpers.ts), so two at once.
    maxWorkers: 2,
    projects: [
      // Through Astro's Vite config, so site modules resolve `astro:env/client` (the build's settings, typed in astro.config.mjs).
      getViteConfig({ test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } }),
      // tests/host: the host (serving, publishing, listening) against a real database, beside the API's tests.
      { test: { name: 'api', include: ['tests/api/**/*.test.ts', 'tests/host/**/*.test.ts'], env: { TEST_DB: 'pglite' }, testTimeout: 30_000, hookTimeout: 60_000 } },
      ...pg,
    ],
  },
});
