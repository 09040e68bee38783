/**
 * Per-user pages are one static shell each; the id is read from the URL by the island.
 * The table lives in src/domain/routes.ts; the local server applies it, and the same table is
 * written for static hosts (`_redirects` in every build, docs/nginx.conf: src/host/publish/static-host.ts).
 */
export { shellFor } from '../domain/routes';
