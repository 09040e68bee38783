/**
 * Per-user pages are one static shell each; the id is read from the URL by the island.
 * The table lives in src/domain/routes.ts; the local server applies it, and the same table is
 * exported for static hosts (public/_redirects and docs/nginx.conf, by scripts/write-rewrites.ts).
 */
export { SHELL_REWRITES, shellFor } from '../domain/routes';
