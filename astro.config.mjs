// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';

// DIST_DIR and ASTRO_CACHE_DIR let `npm start`, tests and benchmarks build side by side
// without clobbering each other's output or content store.
export default defineConfig({
  output: 'static',
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  outDir: process.env.DIST_DIR ?? './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  integrations: [react(), sitemap({ filter: (page) => !/\/(my|coupon|referral|inquire|subscribe|login|signup|forgot-password|reset-password|car\/fallback|butler\/(request|subscribe)\/)/.test(page) })],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
});
