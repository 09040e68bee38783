import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSite } from '../../src/host/static';
import { composeSite } from '../../src/host/site-app';
import { unrouted } from '../api/client';
import { createTestContext, type TestContext } from '../api/helpers';

/** The site and the API on one app as `npm start` composes them: no API request ever gets a site page. */
let ctx: TestContext;
let site: ReturnType<typeof composeSite>;
let dist: string;
beforeAll(async () => {
  ctx = await createTestContext();
  dist = mkdtempSync(path.join(tmpdir(), 'site-app-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>home</title><p>HOME PAGE</p>');
  site = composeSite({ api: ctx.app, site: serveSite(() => dist) });
});
afterAll(async () => {
  rmSync(dist, { recursive: true, force: true });
  await ctx.close();
});

async function answer(method: string, url: string, init: RequestInit = {}) {
  const res = await site.request(url, { method, ...init });
  const text = await res.text();
  return { res, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null };
}

describe('site + API composition', () => {
  it('the API answers under /api and the site elsewhere', async () => {
    const health = await answer('GET', '/api/health');
    expect(health.res.status).toBe(200);
    expect(health.body.data.status).toBe('ok');
    const home = await answer('GET', '/some/page');
    expect(home.res.status).toBe(200);
    expect(home.text).toContain('HOME PAGE');
  });

  it('unknown API paths, /api, /api/ and trailing slashes are the JSON 404 envelope, not the home page', async () => {
    for (const url of ['/api/no-such-route', '/api', '/api/', '/api/health/', '/api/subscriptions/garages/', '/api/services/faqs/1/x']) {
      for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
        const { res, body, text } = await answer(method, url);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(text, `${method} ${url}`).not.toContain('HOME PAGE');
        expect(body, `${method} ${url}`).toEqual({ code: 1004, message: '요청한 주소를 찾을 수 없습니다.', errors: {} });
      }
    }
  });

  it('a known path with a wrong method is the 405 envelope with Allow; OPTIONS there is 204 with Allow', async () => {
    const wrong = await answer('POST', '/api/health');
    expect(wrong.res.status).toBe(405);
    expect(wrong.res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(wrong.body).toMatchObject({ code: 1105, message: '허용되지 않는 요청 방식입니다.' });
    expect(wrong.body.errors).toBeTypeOf('object');
    const del = await answer('DELETE', '/api/services/contacts');
    expect(del.res.status).toBe(405);
    expect(del.res.headers.get('allow')).toBe('POST, OPTIONS');
    const put = await answer('PATCH', '/api/subscriptions/requests/1');
    expect(put.res.status).toBe(405);
    expect(put.res.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    const options = await site.request('/api/subscriptions/garages', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('the API alone (tests, other hosts) answers the same 404 and 405', async () => {
    expect((await ctx.call('GET', unrouted('/no-such-route'))).body).toEqual({ code: 1004, message: '요청한 주소를 찾을 수 없습니다.', errors: {} });
    const res = await ctx.app.request('/health', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
