import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos } from '../../src/api/db/schema';
import { setStaffRole } from '../../src/api/accounts/staff';
import { composeSite } from '../../src/host/site-app';
import { createTestContext, customer, type TestContext } from './helpers';
import { garbledPicture, phoneHeic } from './heic-fixtures';

// Photos as staff take them: a 12-MP phone JPEG of 7–8 MB is taken in as the raw body (no base64
// JSON), a file over 25 MB is refused with a Korean 413 before it is held, and only staff may send one.

const MB = 1024 * 1024;
const TOO_LARGE = '사진은 한 장에 25MB까지 올릴 수 있습니다. 더 작은 사진을 골라주세요.';

let t: TestContext;
let staff: string;
let member: string;
let phone: Buffer;
let server: http.Server;
let port: number;
const dataDir = mkdtempSync(path.join(tmpdir(), 'photo-uploads-'));

beforeAll(async () => {
  t = await createTestContext({ dataDir });
  const s = await customer(t);
  await setStaffRole(t.database.db, s.user.email!, true);
  staff = s.token;
  member = (await customer(t)).token;
  // A 4000×3000 phone photo that does not compress small: gaussian noise at quality 90 is ~8 MB.
  phone = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
  server = createAdaptorServer(composeSite({ api: t.app, site: (c) => c.text('site') })) as http.Server;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
}, 60_000);
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const raw = (bytes: Uint8Array, token: string | null = staff, type = 'image/jpeg') => t.call('POST', '/admin/uploads', { token: token ?? undefined, body: bytes, headers: { 'content-type': type } });

/** One upload over real HTTP: with Content-Length, or chunked (`chunked`: no length said, the server counts). */
function send(bytes: Buffer, opts: { chunked?: boolean; token?: string } = {}) {
  return new Promise<{ status: number; body: { code: number; message: string; errors?: Record<string, string[]> }; connection: string | undefined }>((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'image/jpeg', authorization: `Bearer ${opts.token ?? staff}` };
    if (!opts.chunked) headers['content-length'] = bytes.length;
    const req = http.request({ host: '127.0.0.1', port, path: '/api/admin/uploads', method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), connection: res.headers.connection }));
    });
    // The server may answer and close before the whole body is sent: that is the point.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    if (opts.chunked) {
      for (let at = 0; at < bytes.length; at += MB) req.write(bytes.subarray(at, at + MB));
      req.end();
    } else req.end(bytes);
  });
}

/** A real JPEG over 25 MB: the phone photo with bytes after its end marker (decoders ignore them). */
const oversized = () => Buffer.concat([phone, Buffer.alloc(25 * MB + 1 - phone.length, 0x5a)]);

describe('POST /admin/uploads with a phone photo', () => {
  it('takes a ~8 MB 4000×3000 JPEG sent as the raw body and encodes it like any photo', async () => {
    expect(phone.length).toBeGreaterThan(7 * MB);
    expect(phone.length).toBeLessThan(10 * MB);
    const res = await raw(phone);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { photo, url } = res.body.data;
    expect(photo).toMatchObject({ width: 4000, height: 3000 });
    expect(photo.variants).toHaveLength(12);
    expect(url).toBe(`/api/images/${photo.id}-1600.jpg`);
    expect((await t.app.request(url.replace(/^\/api/, ''))).status).toBe(200);
  }, 120_000);

  it('takes it over real HTTP with its Content-Length too (the same photo, stored once)', async () => {
    const res = await send(phone);
    expect(res.status).toBe(201);
    expect((await t.database.db.select({ id: photos.id }).from(photos))).toHaveLength(1);
  }, 120_000);

  it('refuses a file over 25 MB with a Korean 413, whether its length is said or it streams in, and keeps nothing', async () => {
    const big = oversized();
    const expected = { code: 1113, message: TOO_LARGE, errors: { file: [TOO_LARGE] } };
    // No Content-Length (app.request): counted chunk by chunk and cut off past 25 MB.
    const streamed = await raw(big);
    expect(streamed.status).toBe(413);
    expect(streamed.body).toEqual(expected);
    // Content-Length over the limit: refused before one byte is read, the connection closed after the answer.
    const declared = await send(big);
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual(expected);
    expect(declared.connection).toBe('close');
    // Chunked over real HTTP: the same.
    const chunked = await send(big, { chunked: true });
    expect(chunked.status).toBe(413);
    expect(chunked.body).toEqual(expected);
    // Multipart is held to the same limit.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(big)], { type: 'image/jpeg' }), 'big.jpg');
    const multipart = await t.app.request('/admin/uploads', { method: 'POST', body: form, headers: { authorization: `Bearer ${staff}` } });
    expect(multipart.status).toBe(413);
    expect(await multipart.json()).toEqual(expected);
    expect((await t.database.db.select({ id: photos.id }).from(photos))).toHaveLength(1);
  }, 60_000);

  it('takes exactly 25 MB, not a byte more, counted as it streams', async () => {
    // Over by one byte: refused; the limit itself is not (it reaches the type check: padding alone is no image).
    expect((await raw(Buffer.alloc(25 * MB + 1, 0x5a))).status).toBe(413);
    const at = await raw(Buffer.alloc(25 * MB, 0x5a));
    expect(at.status).toBe(400);
    expect(at.body.message).toBe('이미지 파일이 아니거나 형식이 맞지 않습니다.');
  }, 60_000);

  it('is staff-only before anything is read: a stranger or a customer sending 26 MB gets the 403, not the upload', async () => {
    const big = oversized();
    for (const res of [await raw(big, null), await raw(big, member), await send(big, { token: 'nope', chunked: true })]) {
      expect(res.status).toBe(403);
      expect(res.body.message).not.toBe(TOO_LARGE);
    }
  }, 60_000);

  it('keeps base64 JSON for small images only: a photo as base64 text meets the API\'s 1 MB body limit', async () => {
    const big = await t.call('POST', '/admin/uploads', { token: staff, json: { content_type: 'image/jpeg', data: phone.toString('base64') } });
    expect(big.status).toBe(400);
    expect(big.body.message).toBe('요청 본문이 너무 큽니다. (최대 1MB)');
    // Under the body limit but over the JSON form's 700 KB: told to send the file itself.
    const middle = await t.call('POST', '/admin/uploads', { token: staff, json: { content_type: 'image/jpeg', data: phone.subarray(0, 720 * 1024).toString('base64') } });
    expect(middle.status).toBe(400);
    expect(middle.body.errors.data).toEqual(['JSON(base64)으로는 700KB까지만 올릴 수 있습니다. 큰 사진은 파일 그대로 보내주세요.']);
  });

  it('takes an iPhone HEIC as the raw body, and as multipart under its name alone (a browser gives a .heic no type); refuses a damaged one in Korean', async () => {
    const heic = phoneHeic();
    const res = await raw(heic, staff, 'image/heic');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.photo).toMatchObject({ width: 900, height: 600 });
    const form = new FormData();
    form.append('file', new File([new Uint8Array(heic)], 'IMG_0412.HEIC', { type: '' }));
    const multipart = await t.app.request('/admin/uploads', { method: 'POST', body: form, headers: { authorization: `Bearer ${staff}` } });
    expect(multipart.status).toBe(201);
    expect(((await multipart.json()) as { data: { photo: { id: string } } }).data.photo.id).toBe(res.body.data.photo.id);
    const other = new FormData();
    other.append('file', new File([new Uint8Array(heic)], 'memo.txt', { type: '' }));
    const named = await t.app.request('/admin/uploads', { method: 'POST', body: other, headers: { authorization: `Bearer ${staff}` } });
    expect(named.status).toBe(400);
    expect(((await named.json()) as { message: string }).message).toBe('이미지는 JPEG, PNG, WebP, AVIF, HEIC만 올릴 수 있습니다.');
    const damaged = await raw(garbledPicture(heic), staff, 'image/heic');
    expect(damaged.status).toBe(422);
    expect(damaged.body.message).toBe('HEIC 사진이 손상되어 읽을 수 없습니다. 사진을 다시 내보내거나 JPEG로 올려주세요.');
  });

  it('refuses a raw body that is not the type it says, and an empty one, in Korean', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
    const mislabelled = await raw(png, staff, 'image/jpeg');
    expect(mislabelled.status).toBe(400);
    expect(mislabelled.body.message).toBe('이미지 파일이 아니거나 형식이 맞지 않습니다.');
    const empty = await raw(new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('이미지 데이터가 없습니다.');
    expect((await raw(png, staff, 'image/png; charset=binary')).status).toBe(201);
    expect(readdirSync(path.join(dataDir, 'images')).length).toBe(12 + 9 + 3);
  });
});
