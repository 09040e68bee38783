import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar, insertUser } from '../../src/api/seed/factories';
import { openSession } from '../../src/api/accounts/sessions';
import { auditLog, handoverPhotos } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { MAX_HANDOVER_PHOTOS } from '../../src/domain/handover';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';
import { claimingSize, garbledPicture, phoneHeic } from './heic-fixtures';

/**
 * 상태 사진 (issue 39): condition photos on a handover record, uploaded by staff or the assigned
 * driver, re-encoded without metadata, kept in the database (never under DIST_DIR), read only by
 * the subscription's customer, staff and the assigned driver, privately (no-store), with an ETag.
 */
let ctx: TestContext;
let carId: number;
let distDir: string;
let dataDir: string;
const ADMIN = TEST_ADMIN_TOKEN;
const korean = /[가-힣]/;

beforeAll(async () => {
  distDir = mkdtempSync(path.join(tmpdir(), 'photos-dist-'));
  dataDir = mkdtempSync(path.join(tmpdir(), 'photos-data-'));
  ctx = await createTestContext({ distDir, dataDir });
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
});
afterAll(async () => {
  await ctx.close();
  rmSync(distDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const { admin: staff } = apiTools(() => ctx);

/** Every file under a folder, recursively. */
const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));

/** A JPEG with EXIF (camera make, GPS-ish comment) and a given size and colour. */
async function jpegWithExif(width: number, height: number, r = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g: 80, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhotoPhone', Model: 'Secret 9', ImageDescription: 'GPS 37.5665N 126.9780E' } })
    .toBuffer();
}

async function account(role: 'staff' | 'driver', driverId?: number) {
  const u = await insertUser(ctx.database.db, { role, driverId });
  return (await openSession(ctx.database.db, ctx.config, u.id)).access_token;
}

let seq = 0;
/** A confirmed subscription with a scheduled delivery: its customer, driver accounts (assigned, other), the handover. */
async function scheduledDelivery(start: string) {
  await staff('POST', '/admin/test-clock', { now: `${start}T08:00:00+09:00` });
  const { token, user } = await customer(ctx);
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: issueSandboxBillingKey(ctx.config) } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const confirmed = await staff('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { start_date: start });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
  const subscriptionId = confirmed.body.data.subscription.id;
  const newDriver = async () => {
    seq += 1;
    const res = await staff('POST', '/admin/drivers', { name: `사진기사${seq}`, phone: `010-6666-${String(1000 + seq)}`, gender: 'male' });
    expect(res.status).toBe(201);
    return res.body.data.driver.id;
  };
  const [driverId, otherId] = [await newDriver(), await newDriver()];
  const h = await staff('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { kind: 'DELIVERY', driver_id: driverId, date: start, window_start: '10:00', window_end: '11:00' });
  expect(h.status, JSON.stringify(h.body)).toBe(201);
  return { customerToken: token, customerName: user.name ?? '', subscriptionId, id: h.body.data.handover.id, driver: await account('driver', driverId), otherDriver: await account('driver', otherId) };
}

/** A handover's photos, as staff or as the driver post them. */
type PhotosPath = `/${'admin' | 'driver'}/handovers/${number}/photos`;
const upload = (p: PhotosPath, token: string, body: Uint8Array, type = 'image/jpeg') => ctx.call('POST', p, { token, body, headers: { 'content-type': type } });
const image = (p: string, token?: string, headers: Record<string, string> = {}) => ctx.app.request(p, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

describe('condition photos', () => {
  it('staff and the assigned driver upload; the WebP has no EXIF, fits 1600 px; the customer, staff and driver read it privately; nothing under DIST_DIR', async () => {
    const h = await scheduledDelivery('2030-02-03');
    const staffToken = await account('staff');
    const before = filesUnder(distDir);

    const first = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, await jpegWithExif(3000, 2000));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const photo = first.body.data.photo;
    expect(photo).toMatchObject({ handover_id: h.id, width: 1600, height: 1067, content_type: 'image/webp', url: `/handovers/${h.id}/photos/${photo.id}` });
    const byDriver = await upload(`/driver/handovers/${h.id}/photos`, h.driver, await jpegWithExif(800, 600, 20));
    expect(byDriver.status, JSON.stringify(byDriver.body)).toBe(201);
    // The same image again is the same photo (a retry), not a second one.
    const again = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, await jpegWithExif(3000, 2000));
    expect(again.status).toBe(200);
    expect(again.body.data.photo.id).toBe(photo.id);

    const [stored] = await ctx.database.db.select().from(handoverPhotos).where(eq(handoverPhotos.id, photo.id));
    const meta = await sharp(stored.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored.bytes.includes(Buffer.from('PhotoPhone'))).toBe(false);
    expect(stored.bytes.includes(Buffer.from('126.9780'))).toBe(false);

    for (const token of [h.customerToken, staffToken, h.driver]) {
      const list = await ctx.call('GET', `/handovers/${h.id}/photos`, { token });
      expect(list.status).toBe(200);
      expect(list.body.data.photos.map((p: { id: number }) => p.id)).toEqual([photo.id, byDriver.body.data.photo.id]);
      const res = await image(photo.url, token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('etag')).toBe(`"${stored.sha256}"`);
      expect(Buffer.from(await res.arrayBuffer()).equals(stored.bytes)).toBe(true);
    }
    expect((await image(photo.url, h.customerToken, { 'if-none-match': `"${stored.sha256}"` })).status).toBe(304);
    expect((await staff('GET', `/admin/handovers/${h.id}/photos`)).body.data.photos).toHaveLength(2);

    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'handover_photo'));
    expect(audits.filter((a) => a.entityId === String(photo.id))).toHaveLength(1);
    expect(filesUnder(distDir)).toEqual(before);
    expect(filesUnder(dataDir).filter((f) => /\.(webp|jpe?g|avif|png)$/i.test(f))).toEqual([]);
  });

  it('refuses strangers: another customer and another driver 404 on the list and image, no token 401, another driver 403 on upload, a customer 403', async () => {
    const h = await scheduledDelivery('2030-02-10');
    const up = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, await jpegWithExif(400, 300));
    expect(up.status).toBe(201);
    const url = up.body.data.photo.url as string;
    const { token: stranger } = await customer(ctx);
    for (const token of [stranger, h.otherDriver]) {
      const list = await ctx.call('GET', `/handovers/${h.id}/photos`, { token });
      expect(list.status).toBe(404);
      expect(list.body.message).toMatch(korean);
      expect((await image(url, token)).status).toBe(404);
    }
    expect((await ctx.call('GET', `/handovers/${h.id}/photos`)).status).toBe(401);
    expect((await image(url)).status).toBe(401);
    const other = await upload(`/driver/handovers/${h.id}/photos`, h.otherDriver, await jpegWithExif(400, 300, 10));
    expect(other.status).toBe(403);
    expect(other.body.message).toMatch(korean);
    expect((await upload(`/driver/handovers/${h.id}/photos`, h.customerToken, await jpegWithExif(400, 300, 10))).status).toBe(403);
    expect((await upload(`/admin/handovers/${h.id}/photos`, h.customerToken, await jpegWithExif(400, 300, 10))).status).toBe(403);
    expect((await upload(`/admin/handovers/${h.id}/photos`, '', await jpegWithExif(400, 300, 10))).status).toBe(403);
    // A photo id of another handover is not found through this one.
    const h2 = await scheduledDelivery('2030-02-11');
    expect((await image(url.replace(`/handovers/${h.id}/`, `/handovers/${h2.id}/`), h2.customerToken)).status).toBe(404);
    expect((await image(`/handovers/${h.id}/photos/abc`, h.customerToken)).status).toBe(400);
  });

  it('refuses a non-image (400), a wrong type (400), an over-size body (413), in Korean; nothing stored', async () => {
    const h = await scheduledDelivery('2030-02-17');
    const notImage = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, Buffer.from('%PDF-1.4 not a photo'));
    expect(notImage.status).toBe(400);
    expect(notImage.body.message).toMatch(korean);
    const pdf = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, Buffer.from('%PDF-1.4'), 'application/pdf');
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toMatch(korean);
    const big = await ctx.call('POST', `/admin/handovers/${h.id}/photos`, { token: ADMIN, body: new Uint8Array(10), headers: { 'content-type': 'image/jpeg', 'content-length': String(26 * 1024 * 1024) } });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(korean);
    expect((await staff('GET', `/admin/handovers/${h.id}/photos`)).body.data.photos).toEqual([]);
    expect((await upload(`/admin/handovers/999999/photos`, ADMIN, await jpegWithExif(50, 50))).status).toBe(404);
  });

  it('takes an iPhone HEIC from the driver (one WebP, no EXIF or GPS); refuses a damaged HEIC (400), a HEIC bomb (413) and a non-HEIC said to be one (400), in Korean', async () => {
    const h = await scheduledDelivery('2030-02-19');
    const heic = phoneHeic();
    expect(heic.includes(Buffer.from('SecretPhone'))).toBe(true);
    const taken = await upload(`/driver/handovers/${h.id}/photos`, h.driver, heic, 'image/heic');
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(taken.body.data.photo).toMatchObject({ width: 900, height: 600, content_type: 'image/webp' });
    const [stored] = await ctx.database.db.select().from(handoverPhotos).where(eq(handoverPhotos.id, taken.body.data.photo.id));
    const meta = await sharp(stored.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 900, height: 600 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    for (const secret of ['SecretPhone', 'GPS', 'Exif']) expect(stored.bytes.includes(Buffer.from(secret)), secret).toBe(false);
    // The picture itself came through: its red top-left corner, its blue sky.
    const { data, info } = await sharp(stored.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[(100 * info.width + 800) * info.channels + 2]).toBeGreaterThan(180);

    const damaged = 'HEIC 사진이 손상되어 읽을 수 없습니다. 사진을 다시 내보내거나 JPEG로 올려주세요.';
    for (const bytes of [heic.subarray(0, 200), heic.subarray(0, heic.length - 400), garbledPicture(heic)]) {
      const res = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, bytes, 'image/heic');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: damaged, errors: { file: [damaged] } });
    }
    const bomb = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, claimingSize(heic, 9000, 6000), 'image/heic');
    expect(bomb.status).toBe(413);
    expect(bomb.body.message).toBe('이미지 크기가 너무 큽니다. (최대 4,000만 화소)');
    const notHeic = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, Buffer.from('IMG_0412.HEIC 아님'), 'image/heic');
    expect(notHeic.status).toBe(400);
    expect(notHeic.body.message).toBe('이미지 파일만 올릴 수 있습니다.');
    expect((await staff('GET', `/admin/handovers/${h.id}/photos`)).body.data.photos).toHaveLength(1);
  });

  it('takes a real phone-sized photo past the API-wide 1 MB body limit (the upload routes have their own)', async () => {
    const h = await scheduledDelivery('2030-02-18');
    const noise = Buffer.from(Array.from({ length: 1400 * 1000 * 3 }, (_, i) => (i * 2654435761) >>> 24));
    const big = await sharp(noise, { raw: { width: 1400, height: 1000, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
    expect(big.byteLength).toBeGreaterThan(1024 * 1024);
    const byDriver = await upload(`/driver/handovers/${h.id}/photos`, h.driver, big);
    expect(byDriver.status, JSON.stringify(byDriver.body)).toBe(201);
    expect(byDriver.body.data.photo).toMatchObject({ width: 1400, height: 1000 });
    // The same photo from staff is the one stored (200), not a second.
    const byStaff = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, big);
    expect(byStaff.status).toBe(200);
    expect(byStaff.body.data.photo.id).toBe(byDriver.body.data.photo.id);
  });

  it('takes photos until the customer acknowledges the record (then 409), and at most 12', async () => {
    const h = await scheduledDelivery('2030-02-24');
    for (let i = 0; i < MAX_HANDOVER_PHOTOS; i += 1) expect((await upload(`/admin/handovers/${h.id}/photos`, ADMIN, await jpegWithExif(64, 48, i * 10))).status).toBe(201);
    const thirteenth = await upload(`/admin/handovers/${h.id}/photos`, ADMIN, await jpegWithExif(64, 48, 250));
    expect(thirteenth.status).toBe(409);
    expect(thirteenth.body.message).toMatch(korean);

    const h2 = await scheduledDelivery('2030-03-03');
    expect((await staff('POST', `/admin/handovers/${h2.id}/record`, { odometer_km: 12, fuel_percent: 100 })).status).toBe(200);
    expect((await upload(`/driver/handovers/${h2.id}/photos`, h2.driver, await jpegWithExif(64, 48))).status).toBe(201);
    const ack = await ctx.call('POST', `/handovers/${h2.id}/acknowledge`, { token: h2.customerToken, json: { name: h2.customerName } });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const late = await upload(`/admin/handovers/${h2.id}/photos`, ADMIN, await jpegWithExif(64, 48, 90));
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(korean);
  });
});
