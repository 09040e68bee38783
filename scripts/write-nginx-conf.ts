import { writeFileSync } from 'node:fs';
import { nginxSnippet } from '../src/host/publish/static-host';

/**
 * `npx tsx scripts/write-nginx-conf.ts`: writes docs/nginx.conf from the route table and the
 * security headers (tests/unit/host/rewrites.test.ts fails while it is stale). The builds write
 * `_redirects` and `_headers` themselves.
 */
writeFileSync(new URL('../docs/nginx.conf', import.meta.url), nginxSnippet());
console.log('Wrote docs/nginx.conf');
