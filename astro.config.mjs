// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
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
  build: { format: 'directory', inlineStylesheets: 'always' },
  // Guarded pages, per-user shells and account pages stay out of the sitemap (src/domain/routes.ts).
  // storefront: the build snapshot as `virtual:luxe/build-snapshot`, and `_redirects`/`_headers` in every build's output.
  integrations: [react(), sitemap({ filter: (page) => inSitemap(new URL(page).pathname) }), storefront({ hostFiles: staticHostFiles })],
  // Bundled scripts stay files (never inlined), so the Content-Security-Policy allows them as 'self' (src/api/security-headers.ts).
  vite: { plugins: [tailwindcss()], build: { assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined) } },
  devToolbar: { enabled: false },
});
