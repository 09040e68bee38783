import { defineConfig, devices } from '@playwright/test';

/** E2E_PORT lets several runs share a machine; each gets its own data and build folders. */
const port = Number(process.env.E2E_PORT ?? 4399);
const dir = `.e2e/${port}`;
export const E2E_ADMIN_TOKEN = 'e2e-admin-token-e2e-admin-token-0123';

/**
 * Each test runs once, at 1280 px (the desktop project), unless its layout differs by width:
 * - `{ tag: '@both-viewports' }`: what it checks differs between 390 px and 1280 px (a menu behind
 *   the hamburger, columns, carousels, overflow): it runs in both projects.
 * - `{ tag: '@phone' }`: a check of the 390 px layout alone: it runs in the phone project only.
 * A flow that only needs a phone for one party (the driver, a second customer) opens a 390 px
 * context of its own and stays untagged, so it runs once.
 */
const BOTH_VIEWPORTS = /@both-viewports/;
const PHONE_ONLY = /@phone/;

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--disable-quic', '--no-first-run'],
};

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: `test-results/${port}`,
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    trace: 'retain-on-failure',
    launchOptions,
  },
  projects: [
    // The tags are explained above BOTH_VIEWPORTS.
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 }, launchOptions }, grepInvert: PHONE_ONLY },
    { name: 'mobile', use: { ...devices['Pixel 5'], viewport: { width: 390, height: 844 }, launchOptions }, grep: [BOTH_VIEWPORTS, PHONE_ONLY] },
  ],
  webServer: {
    command: 'node_modules/.bin/tsx scripts/e2e-server.ts',
    // The home page answers 503 until the first build is in place.
    url: `http://localhost:${port}/`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: `${dir}/data`,
      DIST_DIR: `${dir}/dist`,
      ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      // The payment and identity sandbox (the default while PortOne is not configured; said here for the reader).
      SANDBOX: 'on',
      // The /api/admin/test-* fixtures (made-up customers and staff, the test clock) exist only when asked for.
      TEST_FIXTURES: 'on',
      // Since issue 38 each order holds its car: enough plates for every ordering test of both projects
      // (220 since withdrawal, availability and butler-legal added orders).
      SEED_CARS: '220',
      JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret',
      // A dummy key so the lounge map loads its SDK; tests stand the SDK in (tests/e2e/mocks/kakao-maps.ts).
      PUBLIC_KAKAO_MAP_KEY: 'e2e-kakao-key',
      // Kakao Login against the stand-in OAuth server of tests/e2e/global-setup.ts (port E2E_PORT + 1000).
      PUBLIC_KAKAO_REST_API_KEY: 'e2e-kakao-rest-key',
      KAKAO_REST_API_KEY: 'e2e-kakao-rest-key',
      KAKAO_AUTH_BASE_URL: `http://127.0.0.1:${port + 1000}`,
      KAKAO_API_BASE_URL: `http://127.0.0.1:${port + 1000}`,
    },
  },
});
