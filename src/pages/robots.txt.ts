import type { APIRoute } from 'astro';

/**
 * robots.txt: the API, per-id shells and password-reset links stay out; account pages, /login and /signup may
 * be crawled (a crawler is sent to /login; issue 37: Lighthouse SEO on every page); the sitemap lists the storefront.
 */
export const GET: APIRoute = ({ site }) =>
  new Response(
    [
      'User-agent: *',
      'Allow: /',
      ...['/subscribe/', '/forgot-password', '/reset-password', '/car/fallback', '/driver', '/api/'].map((p) => `Disallow: ${p}`),
      '',
      `Sitemap: ${new URL('/sitemap-index.xml', site)}`,
      '',
    ].join('\n'),
    { headers: { 'content-type': 'text/plain; charset=utf-8' } },
  );
