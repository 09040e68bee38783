import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GUARDED_PATHS, GUEST_PATHS, SHELL_REWRITES, guardFor, inSitemap, modeForPath, shellFor } from '../../../src/domain/routes';
import { shellFor as serverShellFor } from '../../../src/host/rewrites';
import { headersFile, nginxSnippet, redirectsFile } from '../../../src/host/publish/static-host';
import { cacheControl } from '../../../src/host/static';

describe('shell rewrites', () => {
  it('sends per-user pages with an id to their one shell and anything else home', () => {
    expect(shellFor('/car/12345')).toBe('/car/fallback/');
    expect(shellFor('/subscribe/request/7')).toBe('/subscribe/request/detail/');
    expect(shellFor('/butler/request/7/')).toBe('/butler/request/detail/');
    expect(shellFor('/butler/subscribe/3')).toBe('/butler/subscribe/detail/');
    expect(shellFor('/butler/request')).toBe('/');
    expect(shellFor('/porsche-911')).toBe('/');
    expect(shellFor('/a/b/c')).toBe('/');
    expect(serverShellFor).toBe(shellFor);
  });
  it('ships the same table to static hosts (every build writes _redirects; regenerate docs/nginx.conf with scripts/write-nginx-conf.ts)', () => {
    const redirects = redirectsFile().split('\n');
    for (const r of SHELL_REWRITES) expect(redirects).toContain(`${r.from} ${r.to} 200`);
    expect(redirects.filter((l) => l && !l.startsWith('#')).at(-1)).toBe('/* / 200');
    expect(readFileSync('docs/nginx.conf', 'utf8')).toBe(nginxSnippet());
    for (const r of SHELL_REWRITES) expect(nginxSnippet()).toContain(`${r.to}index.html;`);
  });
  it('serves photos as files cached for good, and a photo the build lacks from the API rather than home', () => {
    const redirects = redirectsFile().split('\n');
    expect(redirects.indexOf('/photos/* https://api.example.com/api/images/:splat 200')).toBeGreaterThan(-1);
    expect(redirects.indexOf('/photos/* https://api.example.com/api/images/:splat 200')).toBeLessThan(redirects.indexOf('/* / 200'));
    expect(headersFile()).toContain('/photos/*\n  cache-control: public, max-age=31536000, immutable\n');
    expect(headersFile()).toContain('/_astro/*\n  cache-control: public, max-age=31536000, immutable\n');
    expect(nginxSnippet()).toMatch(/location \/photos\/ \{\n(.*\n)*\s+try_files \$uri @photo_api;/);
    expect(cacheControl('/srv/dist.live-1/photos/0123456789abcdef-480.avif')).toBe('public, max-age=31536000, immutable');
    expect(cacheControl('/srv/dist.live-1/car/1/index.html.br')).toBe('no-cache');
  });
});

describe('route table', () => {
  it('guards the spec routes (§2.1–2.3) and the pages the app wraps in a login', () => {
    expect([...GUARDED_PATHS].sort()).toEqual(
      ['/inquire', '/my', '/my/requests', '/my/butler-requests', '/my/subscriptions', '/my/butler-subscriptions', '/my/butler', '/my/payments', '/my/company', '/my/company/join', '/coupon', '/referral', '/points', '/subscribe/request/1', '/butler/request/1', '/butler/subscribe/1', '/admin'].sort(),
    );
    expect(GUEST_PATHS).toEqual(['/login', '/signup']);
  });
  it('guards a shell page like the paths it serves, and leaves public pages open', () => {
    expect(guardFor('/subscribe/request/detail/')).toBe('user');
    expect(guardFor('/butler/subscribe/detail')).toBe('user');
    expect(guardFor('/my/')).toBe('user');
    expect(guardFor('/login/')).toBe('guest');
    for (const open of ['/', '/garage', '/car/12', '/car/fallback/', '/butler', '/butler/request', '/chat', '/fleet', '/login/kakao', '/forgot-password', '/reset-password', '/faq', '/unknown']) {
      expect(guardFor(open), open).toBeNull();
    }
  });
  it('derives the mode from the path (spec §2.4)', () => {
    for (const p of ['/butler', '/butler/request', '/butler/request/3', '/chat', '/fleet/']) expect(modeForPath(p), p).toBe('butler');
    for (const p of ['/', '/garage', '/car/12', '/cars', '/inquire', '/faq', '/about', '/contact', '/subscribe/request/1']) expect(modeForPath(p), p).toBe('subscribe');
    for (const p of ['/my', '/login', '/coupon', '/butlers', '/chatroom', '/garages']) expect(modeForPath(p), p).toBeNull();
  });
  it('keeps guarded pages, shells and account pages out of the sitemap', () => {
    for (const p of ['/', '/garage/', '/car/12/', '/faq/', '/about/', '/contact/', '/butler/', '/chat/', '/fleet/', '/privacy/', '/terms/']) expect(inSitemap(p), p).toBe(true);
    for (const p of ['/my/', '/my/requests/', '/coupon/', '/referral/', '/points/', '/inquire/', '/login/', '/signup/', '/login/kakao/', '/forgot-password/', '/reset-password/', '/car/fallback/', '/subscribe/request/detail/', '/butler/request/', '/butler/request/detail/', '/butler/subscribe/detail/', '/admin/']) {
      expect(inSitemap(p), p).toBe(false);
    }
  });
});
