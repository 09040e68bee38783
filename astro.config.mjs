// @ts-check
import { defineConfig, envField } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { inSitemap } from './src/domain/routes.ts';
import { storefront } from './src/integrations/storefront.ts';
import { staticHostFiles } from './src/host/publish/static-host.ts';

// DIST_DIR and ASTRO_CACHE_DIR let builds, tests and benchmarks build side by side without
// clobbering each other's output or content store (the publisher's build child passes its own
// outDir, cacheDir and snapshot in the inline config of astro.build()).
export default defineConfig({
  output: 'static',
  // SITE_URL (npm start passes it; PUBLIC_SITE_URL is an alias): canonical, Open Graph, sitemap, robots.
  site: process.env.SITE_URL ?? process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321',
  outDir: process.env.DIST_DIR ?? './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'auto' },
  // storefront: the build snapshot as `virtual:luxe/build-snapshot`, the sitemap (guarded pages, per-user shells and
  // account pages stay out of it: src/domain/routes.ts), and `_redirects`/`_headers` in every build's output.
  integrations: [react(), storefront({ hostFiles: staticHostFiles, inSitemap })],
  // Bundled scripts stay files (never inlined), so the Content-Security-Policy allows them as 'self' (src/api/security-headers.ts).
  vite: {
    plugins: [tailwindcss()],
    build: {
      assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined),
      // Chunks where the default grouping costs pages bytes (brotli, docs/performance.md): the
      // session store and its keep-alive are on every page together (one chunk, not two: 0.25 KB a
      // page); Korean time is on most pages, calendar arithmetic on few (kept apart, it was merged
      // into the butler quote's chunk and brought it and pricing to /chat).
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'session', test: /src[\\/](stores[\\/]session|client[\\/]keep-alive)\.ts$/, priority: 4 },
              { name: 'korea-time', test: /src[\\/]domain[\\/]dates[\\/]korea-time\.ts$/, priority: 3 },
              { name: 'calendar', test: /src[\\/]domain[\\/]dates[\\/]calendar\.ts$/, priority: 2 },
              { name: 'butler-calendar', test: /src[\\/]domain[\\/]butler-calendar\.ts$/, priority: 1 },
            ],
          },
        },
      },
    },
  },
  // The browser's settings, typed (read through src/config/site.ts and src/config/services.ts). The server builds the site with its
  // own values (src/host/publish/child/worker.ts); the refund fields match its limits (src/api/env.ts).
  // The contact texts are optional: site.ts trims them and falls back to the project's own, a blank value too.
  env: {
    schema: {
      PUBLIC_API_BASE_URL: envField.string({ context: 'client', access: 'public', default: '/api' }),
      // Sandbox on unless the build says off (the server passes its own switch; astro dev says nothing).
      PUBLIC_SANDBOX: envField.enum({ context: 'client', access: 'public', values: ['on', 'off'], default: 'on' }),
      PUBLIC_PORTONE_STORE_ID: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_PORTONE_BILLING_CHANNEL_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_PORTONE_IDENTITY_CHANNEL_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_KAKAO_REST_API_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_KAKAO_MAP_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_BUTLER_FULL_REFUND_HOURS: envField.number({ context: 'client', access: 'public', int: true, min: 0, max: 720, default: 24 }),
      PUBLIC_BUTLER_LATE_REFUND_PERCENT: envField.number({ context: 'client', access: 'public', int: true, min: 0, max: 100, default: 50 }),
      PUBLIC_BUTLER_WAITING_FREE_AIRPORT_MINUTES: envField.number({ context: 'client', access: 'public', int: true, min: 0, max: 240, default: 60 }),
      PUBLIC_BUTLER_WAITING_FREE_MINUTES: envField.number({ context: 'client', access: 'public', int: true, min: 0, max: 240, default: 15 }),
      PUBLIC_BUTLER_WAITING_STEP_MINUTES: envField.number({ context: 'client', access: 'public', int: true, min: 1, max: 120, default: 30 }),
      // The butler's legal basis (BUTLER_LEGAL_MODEL and its partner; src/domain/butler-legal.ts), baked into the booking
      // form so its box is drawn at once; the server passes its own values and the form still asks GET /butlers/legal.
      PUBLIC_BUTLER_LEGAL_MODEL: envField.enum({ context: 'client', access: 'public', values: ['exemptions', 'partner', 'own-car'], default: 'partner' }),
      PUBLIC_BUTLER_PARTNER_NAME: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_BUTLER_PARTNER_LICENCE: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_BUTLER_OWN_CAR_HOURLY_RATE: envField.number({ context: 'client', access: 'public', int: true, min: 1000, max: 1000000, default: 45000 }),
      // LICENCE_NEW_DRIVER, so the terms and the FAQ state the rule the order API applies (src/domain/licence.ts).
      PUBLIC_LICENCE_NEW_DRIVER: envField.enum({ context: 'client', access: 'public', values: ['refuse', 'young-rate'], default: 'refuse' }),
      PUBLIC_KAKAO_CHANNEL_URL: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_CHAT_CHANNEL_URL: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_INSTAGRAM_URL: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_BLOG_URL: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_YOUTUBE_URL: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_CONTACT_PHONE: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_CONTACT_EMAIL: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_LOUNGE_NAME: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_LOUNGE_ADDRESS: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_LOUNGE_HOURS: envField.string({ context: 'client', access: 'public', optional: true }),
      // The seller's identity in the footer (전자상거래법 제10조·제13조; src/domain/business.ts): the server checks the
      // formats and, in production, that each is set (src/api/env.ts); unset, a development build shows samples.
      PUBLIC_COMPANY_NAME: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_COMPANY_CEO: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_BUSINESS_NUMBER: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_MAIL_ORDER_NUMBER: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_HOSTING_PROVIDER: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_PRIVACY_OFFICER_NAME: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_PRIVACY_OFFICER_EMAIL: envField.string({ context: 'client', access: 'public', optional: true }),
    },
  },
  devToolbar: { enabled: false },
});
