import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { headersFile, nginxSnippet } from '../../../src/host/publish/static-host';
import { contentSecurityPolicy, requestIsHttps } from '../../../src/api/security-headers';
import { serveSite } from '../../../src/host/static';

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `))?.split(' ').slice(1) ?? [];

describe('content security policy', () => {
  const policy = contentSecurityPolicy();
  it('runs only our files, Astro’s own inline runtime by hash, and the PortOne, Kakao and postcode scripts', () => {
    const scripts = directive(policy, 'script-src');
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts).toContain("'self'");
    // Astro's six, and our four before-paint scripts (src/page-scripts/before-paint.ts).
    expect(scripts.filter((s) => s.startsWith("'sha256-"))).toHaveLength(10);
    expect(scripts).not.toContain("'unsafe-hashes'");
    for (const host of ['https://cdn.portone.io', 'https://dapi.kakao.com', 'https://t1.kakaocdn.net']) expect(scripts).toContain(host);
    expect(directive(policy, 'frame-src')).toEqual(expect.arrayContaining(['https://*.portone.io', 'https://postcode.map.kakao.com']));
    expect(directive(policy, 'img-src')).toContain('https://*.daumcdn.net');
  });
  it('is framed by nobody and loads no plugins', () => {
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(policy, 'object-src')).toEqual(["'none'"]);
    expect(directive(policy, 'base-uri')).toEqual(["'self'"]);
  });
  it('lets the browser call an API on another origin only when the build is told so', () => {
    expect(directive(policy, 'connect-src')).not.toContain('https://api.example.com');
    expect(directive(contentSecurityPolicy({ apiBaseUrl: 'https://api.example.com/api' }), 'connect-src')).toContain('https://api.example.com');
    expect(directive(contentSecurityPolicy({ apiBaseUrl: 'https://api.example.com/api' }), 'img-src')).toContain('https://api.example.com');
  });
  it('ships the same headers to CDN and nginx deployments (every build writes _headers; regenerate docs/nginx.conf with scripts/write-nginx-conf.ts)', () => {
    expect(readFileSync('docs/nginx.conf', 'utf8')).toBe(nginxSnippet());
    expect(headersFile()).toContain(`content-security-policy: ${policy}`);
    expect(nginxSnippet()).toContain(`add_header content-security-policy "${policy}" always;`);
  });
});

describe('HTTPS detection for HSTS', () => {
  it('trusts X-Forwarded-Proto only from a proxy on this host or a named one', () => {
    expect(requestIsHttps('https://luxe.kr/', undefined, undefined)).toBe(true);
    expect(requestIsHttps('http://luxe.kr/', 'https', '127.0.0.1')).toBe(true);
    expect(requestIsHttps('http://luxe.kr/', 'https', '::ffff:127.0.0.1')).toBe(true);
    expect(requestIsHttps('http://luxe.kr/', 'https', '203.0.113.9')).toBe(false);
    expect(requestIsHttps('http://luxe.kr/', 'https', '10.0.0.2', ['10.0.0.0/8'])).toBe(true);
    expect(requestIsHttps('http://luxe.kr/', 'https', '10.0.0.2', ['192.168.0.0/16'])).toBe(false);
    expect(requestIsHttps('http://luxe.kr/', 'http', '127.0.0.1')).toBe(false);
    expect(requestIsHttps('http://luxe.kr/', undefined, '127.0.0.1')).toBe(false);
  });
});

describe('serveSite headers', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'site-'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>x</title>');
  const site = new Hono();
  site.get('*', serveSite(() => root));

  it('sends the CSP, referrer, permissions and nosniff headers with every page, HSTS only over HTTPS', async () => {
    for (const url of ['http://localhost/', 'http://localhost/no-such-page']) {
      const res = await site.request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy')).toContain('camera=()');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    // No socket in process: a client's own X-Forwarded-Proto is not believed.
    expect((await site.request('http://localhost/', { headers: { 'x-forwarded-proto': 'https' } })).headers.get('strict-transport-security')).toBeNull();
    expect((await site.request('https://localhost/')).headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
  it('sends them while the first build runs too', async () => {
    const waiting = new Hono();
    waiting.get('*', serveSite(() => null));
    const res = await waiting.request('http://localhost/');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
