import type { APIRoute } from 'astro';

/** robots.txt: per-user pages stay out of search; the sitemap lists the storefront. */
export const GET: APIRoute = ({ site }) =>
  new Response(
    [
      'User-agent: *',
      'Allow: /',
      ...['/my', '/coupon', '/referral', '/inquire', '/subscribe/', '/login', '/signup', '/forgot-password', '/reset-password', '/car/fallback', '/api/'].map((p) => `Disallow: ${p}`),
      '',
      `Sitemap: ${new URL('/sitemap-index.xml', site)}`,
      '',
    ].join('\n'),
    { headers: { 'content-type': 'text/plain; charset=utf-8' } },
  );
