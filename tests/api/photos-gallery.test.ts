import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { butlerCars, cars } from '../../src/api/db/schema';
import { seedDatabase } from '../../src/api/seed/seed';
import { setStaffRole } from '../../src/api/accounts/staff';
import { createTestContext, customer, type TestContext } from './helpers';
import { phoneHeic } from './heic-fixtures';

let t: TestContext;
let staff: string;
const dataDir = mkdtempSync(path.join(tmpdir(), 'photos-gallery-'));

beforeAll(async () => {
  t = await createTestContext({ dataDir });
  await seedDatabase(t.database.db, { cars: 6 });
  const s = await customer(t);
  await setStaffRole(t.database.db, s.user.email!, true);
  staff = s.token;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A 2400×1600 photo-like JPEG (gradient and a shape), different for each `hue`. */
const photoJpeg = (hue: number) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600"><defs><linearGradient id="g"><stop offset="0" stop-color="hsl(${hue},60%,30%)"/><stop offset="1" stop-color="hsl(${hue + 40},60%,70%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><rect x="600" y="900" width="1200" height="300" rx="80" fill="#111"/></svg>`,
    ),
  )
    .jpeg({ quality: 85 })
    .toBuffer();

const upload = async (bytes: Buffer) => {
  const res = await t.call('POST', '/admin/uploads', { token: staff, json: { content_type: 'image/jpeg', data: bytes.toString('base64') } });
  expect(res.status).toBe(201);
  return res.body.data as { url: string; photo: { id: string; width: number; height: number; placeholder: string } };
};

describe('galleries', () => {
  it('the catalogue answers each car with its image addresses and its gallery (alt text, encoded photo or none)', async () => {
    const car = (await t.call('GET', '/subscriptions/cars/1')).body.data.car;
    expect(car.images).toHaveLength(3);
    expect(car.gallery.map((g: { src: string }) => g.src)).toEqual(car.images);
    const name = `${car.model.name} ${car.sub_model || car.trim}`;
    expect(car.gallery[0]).toEqual({ src: car.images[0], alt: `${name} 이미지 1`, photo: null });
    const fleet = (await t.call('GET', '/butlers/cars')).body.data.cars;
    expect(fleet[0].gallery[2]).toEqual({ src: fleet[0].images[2], alt: `${fleet[0].model.brand.name} ${fleet[0].model.name} 이미지 3`, photo: null });
  });

  it('keeps an uploaded photo with its size and placeholder, in the order and with the alt text staff gave, on every read', async () => {
    const first = await upload(await photoJpeg(10));
    const second = await upload(await photoJpeg(200));
    const gallery = [
      { src: second.url, alt: '페라리 로마 측면, 노을 진 해안 도로' },
      { src: '/cars/ferrari-roma-1.svg', alt: '스튜디오 측면 그림' },
      // Any variant's address names the photo; it is kept under its canonical one.
      { src: `/photos/${first.photo.id}-480.webp`, alt: '실내 가죽 시트' },
    ];
    const patched = await t.call('PATCH', '/admin/cars/2', { token: staff, json: { gallery } });
    expect(patched.status).toBe(200);
    const expected = [
      { src: second.url, alt: gallery[0].alt, photo: second.photo && { id: second.photo.id, width: 2400, height: 1600, placeholder: second.photo.placeholder } },
      { src: '/cars/ferrari-roma-1.svg', alt: gallery[1].alt, photo: null },
      { src: first.url, alt: gallery[2].alt, photo: { id: first.photo.id, width: 2400, height: 1600, placeholder: first.photo.placeholder } },
    ];
    expect(patched.body.data.car.gallery).toEqual(expected);
    expect(first.url).toBe(`/api/images/${first.photo.id}-1600.jpg`);
    const read = (await t.call('GET', '/subscriptions/cars/2')).body.data.car;
    expect(read.gallery).toEqual(expected);
    expect(read.images).toEqual(expected.map((g) => g.src));
    expect((await t.call('GET', '/catalogue')).body.data.cars.find((c) => c.id === 2)!.gallery).toEqual(expected);
    // The audit log keeps the gallery as it was and as it became.
    const audit = (await t.call('GET', '/admin/audit?entity=car&entity_id=2', { token: staff })).body.data.entries[0];
    expect(audit.after!.gallery).toEqual(expected);
  });

  it('keeps the focus staff set on a photo (not the centre), answers it on every read and audits it like any edit', async () => {
    const portrait = await t.call('POST', '/admin/uploads', {
      token: staff,
      body: await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#445566' } }).jpeg().toBuffer(),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(portrait.status).toBe(201);
    const { url, photo } = portrait.body.data as { url: string; photo: { id: string; placeholder: string } };
    const ref = { id: photo.id, width: 1200, height: 1600, placeholder: photo.placeholder };
    const gallery = [
      { src: url, alt: '세로로 찍은 정면', focus: { x: 40, y: 15 } },
      { src: '/cars/ferrari-roma-1.svg', alt: '스튜디오 측면 그림', focus: { x: 50, y: 50 } },
      { src: url, alt: '같은 사진, 초점 없음', focus: null },
    ];
    const patched = await t.call('PATCH', '/admin/cars/6', { token: staff, json: { gallery } });
    expect(patched.status).toBe(200);
    const expected = [
      { src: url, alt: gallery[0].alt, photo: ref, focus: { x: 40, y: 15 } },
      // The centre is what every page does without a focus: nothing is kept for it.
      { src: '/cars/ferrari-roma-1.svg', alt: gallery[1].alt, photo: null },
      { src: url, alt: gallery[2].alt, photo: ref },
    ];
    expect(patched.body.data.car.gallery).toStrictEqual(expected);
    expect((await t.call('GET', '/subscriptions/cars/6')).body.data.car.gallery).toStrictEqual(expected);
    // Moving the focus is an edit like any other: the audit log has it as it was and as it became.
    const moved = await t.call('PATCH', '/admin/cars/6', { token: staff, json: { gallery: [{ ...gallery[0], focus: { x: 60, y: 80 } }] } });
    expect(moved.body.data.car.gallery[0].focus).toEqual({ x: 60, y: 80 });
    const audit = (await t.call('GET', '/admin/audit?entity=car&entity_id=6', { token: staff })).body.data.entries[0];
    expect((audit.before as { gallery: { focus: unknown }[] }).gallery[0].focus).toEqual({ x: 40, y: 15 });
    expect(audit.after!.gallery).toEqual([{ ...expected[0], focus: { x: 60, y: 80 } }]);
  });

  it('refuses a focus outside 0–100 %, not whole or not { x, y }, in Korean on its field; nothing changes', async () => {
    const before = (await t.call('GET', '/subscriptions/cars/6')).body.data.car.gallery;
    for (const [focus, field] of [[{ x: 120, y: 10 }, 'gallery.0.focus.x'], [{ x: 10, y: 33.3 }, 'gallery.0.focus.y'], ['50% 20%', 'gallery.0.focus']] as const) {
      const res = await t.call('PATCH', '/admin/cars/6', { token: staff, json: { gallery: [{ src: '/cars/x.svg', alt: '정면', focus }] } });
      expect(res.status, field).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.errors[field][0]).toMatch(/^초점/);
    }
    expect((await t.call('GET', '/subscriptions/cars/6')).body.data.car.gallery).toEqual(before);
  });

  it('an iPhone HEIC sent as the raw body goes into a car\'s gallery like any photo, its GPS gone from what pages show', async () => {
    const res = await t.call('POST', '/admin/uploads', { token: staff, body: phoneHeic(), headers: { 'content-type': 'image/heic' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { url, photo } = res.body.data as { url: string; photo: { id: string; placeholder: string; variants: { name: string }[] } };
    expect(url).toBe(`/api/images/${photo.id}-900.jpg`);
    const patched = await t.call('PATCH', '/admin/cars/4', { token: staff, json: { gallery: [{ src: url, alt: '아이폰으로 찍은 정면', focus: { x: 30, y: 60 } }] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const car = (await t.call('GET', '/subscriptions/cars/4')).body.data.car;
    expect(car.gallery).toEqual([{ src: url, alt: '아이폰으로 찍은 정면', photo: { id: photo.id, width: 900, height: 600, placeholder: photo.placeholder }, focus: { x: 30, y: 60 } }]);
    expect(photo.variants.map((v) => v.name.slice(17))).toEqual(['480.avif', '480.webp', '480.jpg', '800.avif', '800.webp', '800.jpg', '900.avif', '900.webp', '900.jpg']);
    for (const { name } of photo.variants) {
      const bytes = Buffer.from(await (await t.app.request(`/images/${name}`)).arrayBuffer());
      expect((await sharp(bytes).metadata()).exif, name).toBeUndefined();
      for (const secret of ['SecretPhone', 'GPS']) expect(bytes.toString('latin1'), name).not.toContain(secret);
    }
  });

  it('butler cars take photos the same way', async () => {
    const photo = await upload(await photoJpeg(120));
    const res = await t.call('PATCH', '/admin/butler-cars/1', { token: staff, json: { gallery: [{ src: photo.url, alt: '마이바흐 뒷좌석' }] } });
    expect(res.status).toBe(200);
    const car = (await t.call('GET', '/butlers/cars/1')).body.data.car;
    expect(car.gallery).toEqual([{ src: photo.url, alt: '마이바흐 뒷좌석', photo: { id: photo.photo.id, width: 2400, height: 1600, placeholder: photo.photo.placeholder } }]);
    expect(car.images).toEqual([photo.url]);
  });

  it('refuses a photo address the server never encoded, an empty alt text, and `images` instead of `gallery`, with Korean messages; nothing changes', async () => {
    const before = (await t.call('GET', '/subscriptions/cars/3')).body.data.car.gallery;
    const unknown = await t.call('PATCH', '/admin/cars/3', { token: staff, json: { gallery: [{ src: '/api/images/0123456789abcdef-1600.jpg', alt: '사진' }] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ 'gallery.0.src': ['등록되지 않은 사진입니다. 사진을 다시 올려주세요.'] });
    const blank = await t.call('PATCH', '/admin/cars/3', { token: staff, json: { gallery: [{ src: '/cars/x.svg', alt: '   ' }] } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors['gallery.0.alt']).toEqual(['이미지 설명을 입력해주세요.']);
    const missing = await t.call('POST', '/admin/cars', { token: staff, json: { model_id: 1, gallery: [{ src: '/cars/x.svg' }] } });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['gallery.0.alt']);
    const legacy = await t.call('PATCH', '/admin/cars/3', { token: staff, json: { images: ['/cars/x.svg'] } });
    expect(legacy.status).toBe(400);
    expect(legacy.body.errors.images).toEqual(['이미지는 gallery에 주소(src)와 설명(alt)으로 보내주세요.']);
    expect((await t.call('GET', '/subscriptions/cars/3')).body.data.car.gallery).toEqual(before);
  });

  it('the migration turns the image addresses of existing rows into gallery entries with the alt text pages showed', async () => {
    const db = t.database.db;
    await db.update(cars).set({ images: sql`'["/cars/a-1.svg","/api/uploads/0123456789abcdef0123456789abcdef.jpg"]'::jsonb` }).where(eq(cars.id, 4));
    await db.update(butlerCars).set({ images: sql`'["/cars/b-1.svg"]'::jsonb` }).where(eq(butlerCars.id, 2));
    await db.update(cars).set({ images: sql`'[]'::jsonb` }).where(eq(cars.id, 5));
    const migration = readFileSync(path.join('src/api/db/migrations/0009_photos.sql'), 'utf8');
    const updates = migration.split('--> statement-breakpoint').filter((statement) => /^\s*(--.*\n\s*)*UPDATE/.test(statement));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await db.execute(sql.raw(statement));
    const car = (await t.call('GET', '/subscriptions/cars/4')).body.data.car;
    const name = `${car.model.name} ${car.sub_model || car.trim}`;
    expect(car.gallery).toEqual([
      { src: '/cars/a-1.svg', alt: `${name} 이미지 1`, photo: null },
      { src: '/api/uploads/0123456789abcdef0123456789abcdef.jpg', alt: `${name} 이미지 2`, photo: null },
    ]);
    expect((await t.call('GET', '/subscriptions/cars/5')).body.data.car.gallery).toEqual([]);
    const butler = (await t.call('GET', '/butlers/cars/2')).body.data.car;
    expect(butler.gallery).toEqual([{ src: '/cars/b-1.svg', alt: `${butler.model.brand.name} ${butler.model.name} 이미지 1`, photo: null }]);
    // Run again, it changes nothing (already gallery entries).
    for (const statement of updates) await db.execute(sql.raw(statement));
    expect((await t.call('GET', '/subscriptions/cars/4')).body.data.car.gallery).toEqual(car.gallery);
  });
});
