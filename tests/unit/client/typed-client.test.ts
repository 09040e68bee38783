import { cleanTestStorage, getTestStorage, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The islands' typed client (hc<ApiRoutes> through call()) sends what api() sent: the path under the
 * API base, JSON bodies, the bearer token, a file as the raw body under its own type, and unwraps
 * the envelope into { ok, data } or the server's Korean message. (The type check itself: tests/types/api-client.ts.)
 */
useTestStorageEngine();
const session = await import('../../../src/stores/session');
const { call, client } = await import('../../../src/client/api');
const { callWithFile } = await import('../../../src/client/file-upload');

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: BodyInit | null | undefined;
  signal: AbortSignal | null | undefined;
}
const sent: Sent[] = [];
function serve(status: number, body: unknown) {
  sent.length = 0;
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    sent.push({ url: String(url), method: init.method ?? 'GET', headers: new Headers(init.headers), body: init.body, signal: init.signal });
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
}

beforeEach(() => {
  cleanTestStorage();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => getTestStorage()[k] ?? null,
    setItem: (k: string, v: string) => setTestStorageKey(k, v),
    removeItem: (k: string) => setTestStorageKey(k, undefined),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('the typed client', () => {
  it('posts JSON to the path under the API base with the bearer token, and unwraps the envelope', async () => {
    session.signIn({ accessToken: 'access-1', refreshToken: 'refresh-1', expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    serve(200, { code: 0, message: 'OK', data: { access_token: 'a', refresh_token: 'r', expires_in: 60 } });
    const res = await call((o) => client.accounts.login.$post({ json: { email: 'kim@example.com', password: 'secret-1' } }, o));
    expect(res).toEqual({ ok: true, data: { access_token: 'a', refresh_token: 'r', expires_in: 60 } });
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toMatch(/\/api\/accounts\/login$/);
    expect(sent[0].method).toBe('POST');
    expect(sent[0].headers.get('content-type')).toBe('application/json');
    expect(sent[0].headers.get('accept')).toBe('application/json');
    expect(sent[0].headers.get('authorization')).toBe('Bearer access-1');
    expect(JSON.parse(sent[0].body as string)).toEqual({ email: 'kim@example.com', password: 'secret-1' });
    expect(sent[0].signal).toBeInstanceOf(AbortSignal);
  });

  it('fills path parameters and the query', async () => {
    serve(200, { code: 0, message: 'OK', data: { coupons: [] } });
    await call((o) => client.subscriptions.coupons.$get({ query: { service: 'SUBSCRIBE' } }, o));
    await call((o) => client.butlers.requests[':id']['cancel-preview'].$get({ param: { id: '7' } }, o));
    await call((o) => client.accounts[':provider{kakao|google|naver|apple}'].$post({ param: { provider: 'kakao' }, json: { code: 'c', redirect_uri: 'https://x/cb' } }, o));
    await call((o) => client.subscriptions.$get({}, o));
    expect(sent.map((s) => `${s.method} ${s.url.replace(/^.*\/api/, '')}`)).toEqual([
      'GET /subscriptions/coupons?service=SUBSCRIBE',
      'GET /butlers/requests/7/cancel-preview',
      'POST /accounts/kakao',
      'GET /subscriptions',
    ]);
    expect(sent[0].body).toBeUndefined();
  });

  it('sends a file as the raw body under its own content type', async () => {
    serve(201, { code: 0, message: 'OK', data: { url: '/api/uploads/x.webp', photo: null } });
    const file = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' });
    const res = await callWithFile(client.admin.uploads, file, { timeoutMs: 180_000 });
    expect(res.ok).toBe(true);
    expect(sent[0].url).toMatch(/\/api\/admin\/uploads$/);
    expect(sent[0].method).toBe('POST');
    expect(sent[0].headers.get('content-type')).toBe('image/jpeg');
    expect(sent[0].body).toBe(file);
  });

  it('sends a .heic the browser gave no type as image/heic (application/octet-stream would be refused), the same bytes', async () => {
    serve(201, { code: 0, message: 'OK', data: { url: '/api/images/x-900.jpg', photo: null } });
    const file = new File([new Uint8Array([1, 2, 3])], 'IMG_0412.HEIC', { type: '' });
    expect((await callWithFile(client.admin.uploads, file)).ok).toBe(true);
    expect(sent[0].headers.get('content-type')).toBe('image/heic');
    const body = sent[0].body as Blob;
    expect(body.type).toBe('image/heic');
    expect([...new Uint8Array(await body.arrayBuffer())]).toEqual([1, 2, 3]);
    // A typed file goes as it is.
    const jpeg = new File([new Uint8Array([4])], 'a.jpg', { type: 'image/jpeg' });
    serve(201, { code: 0, message: 'OK', data: { url: '/api/images/y-900.jpg', photo: null } });
    await callWithFile(client.admin.uploads, jpeg);
    expect(sent[0].body).toBe(jpeg);
  });

  it('returns the server\'s Korean message and field errors on a failure', async () => {
    serve(422, { code: 1001, message: '입력값을 확인해주세요.', errors: { email: ['이메일을 입력해주세요.'] } });
    const res = await call((o) => client.accounts.login.$post({ json: { email: '', password: '' } }, o));
    expect(res).toEqual({ ok: false, status: 422, error: { code: 1001, message: '입력값을 확인해주세요.', errors: { email: ['이메일을 입력해주세요.'] } } });
  });

  it('turns a network failure into the Korean network message', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const res = await call((o) => client.services.faqs.$get({}, o));
    expect(res).toMatchObject({ ok: false, status: 0, error: { message: '네트워크 연결을 확인해주세요.' } });
  });
});
