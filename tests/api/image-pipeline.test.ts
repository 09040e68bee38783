import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDeflate, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePhoto, PhotoRejected, type EncodedPhoto } from '../../src/api/catalogue/photos/pipeline';
import { PHOTO_REJECTIONS } from '../../src/api/catalogue/photos/rejections';
import { eq } from 'drizzle-orm';
import { photos, photoVariants } from '../../src/api/db/schema';
import { imagesDir, readPhotoVariant, saveEncoded } from '../../src/api/catalogue/photos/store';
import { setStaffRole } from '../../src/api/accounts/staff';
import { createTestContext, customer, type TestContext } from './helpers';
import { claimingSize, garbledPicture, phoneHeic } from './heic-fixtures';

// Every input is made here with sharp (or by hand, for the bomb), but HEIC: nothing in Node encodes
// HEVC, so its bad cases are made from one small fixture (heic-fixtures.ts).

/** A photo-like picture: a gradient, a car-ish shape, and a red marker in its top-left corner (to see where orientation puts it). */
function scene(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d3557"/><stop offset="1" stop-color="#e9c46a"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <rect x="${width * 0.2}" y="${height * 0.55}" width="${width * 0.6}" height="${height * 0.2}" rx="${height * 0.05}" fill="#101010"/>
    <rect x="0" y="0" width="${width * 0.1}" height="${height * 0.1}" fill="#ff0000"/>
  </svg>`;
  return sharp(Buffer.from(svg));
}

/** A 4000×3000 camera JPEG stored sideways (EXIF orientation 6, as phones do), with GPS, camera and XMP metadata. */
const cameraJpeg = () =>
  scene(4000, 3000)
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'SecretCam', Model: 'X1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 33/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '126/1 58/1 0/1' } })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>SecretPhotographer</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>')
    .jpeg({ quality: 90 })
    .toBuffer();

/** A real decompression bomb: a 1-bit grey PNG of `side`×`side` zero pixels, a few kilobytes on disk. */
async function pngBomb(side: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(1 + Math.ceil(side / 8)); // filter byte + pixels
  for (let y = 0; y < side; y++) deflate.write(row);
  deflate.end();
  await done;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]);
}

/** A three-frame animation (red, green, blue). */
async function animated(format: 'gif' | 'webp'): Promise<Buffer> {
  const frames = await Promise.all(['#c00', '#0c0', '#00c'].map((background) => sharp({ create: { width: 32, height: 32, channels: 3, background } }).png().toBuffer()));
  const animation = sharp(frames, { join: { animated: true } });
  const bytes = await (format === 'gif' ? animation.gif() : animation.webp()).toBuffer();
  expect((await sharp(bytes).metadata()).pages).toBe(3);
  return bytes;
}

const MAGIC = {
  jpeg: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  webp: (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  avif: (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp' && b.subarray(8, 12).toString('latin1') === 'avif',
};

/** The RGB(A) of one pixel of an encoded image. */
async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [...data.subarray(i, i + info.channels)];
}

const rejection = (bytes: Uint8Array) => encodePhoto(bytes).then(() => null, (e: unknown) => e);

let camera: Buffer;
let encoded: EncodedPhoto;
beforeAll(async () => {
  camera = await cameraJpeg();
  encoded = await encodePhoto(camera);
});

describe('encodePhoto', () => {
  it('applies the EXIF orientation: a sideways 4000×3000 original becomes a 3000×4000 portrait', async () => {
    expect((await sharp(camera).metadata()).orientation).toBe(6);
    expect(encoded).toMatchObject({ width: 3000, height: 4000 });
    expect(encoded.id).toMatch(/^[a-f0-9]{16}$/);
    expect(encoded.placeholder).toMatch(/^#[0-9a-f]{6}$/);
    const large = encoded.variants.find((v) => v.width === 1600 && v.format === 'jpeg')!;
    expect(await sharp(large.bytes).metadata()).toMatchObject({ width: 1600, height: 2133 });
    // Orientation 6 turns the picture a quarter clockwise: the red top-left corner ends top-right.
    const [r, g, b] = await pixel(large.bytes, 1600 - 20, 20);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(80);
  });

  it('makes 12 variants of a large photo: 480, 800, 1200 and 1600 px in AVIF, WebP and JPEG, really of those formats', async () => {
    expect(encoded.variants.map((v) => `${v.width}.${v.format}`)).toEqual(['480', '800', '1200', '1600'].flatMap((w) => ['avif', 'webp', 'jpeg'].map((f) => `${w}.${f}`)));
    for (const v of encoded.variants) {
      expect(v.name).toBe(`${encoded.id}-${v.width}.${v.format === 'jpeg' ? 'jpg' : v.format}`);
      expect(MAGIC[v.format](v.bytes)).toBe(true);
      const meta = await sharp(v.bytes).metadata();
      expect(meta.format).toBe(v.format === 'avif' ? 'heif' : v.format);
      if (v.format === 'avif') expect(meta.compression).toBe('av1');
      expect(meta).toMatchObject({ width: v.width, height: v.height, space: 'srgb' });
      expect(v.height).toBe(Math.round((v.width * 4000) / 3000));
    }
  });

  it('strips every metadata block: no EXIF, GPS, XMP, IPTC or ICC profile in any output', async () => {
    const original = await sharp(camera).metadata();
    expect(original.exif?.toString('latin1')).toContain('SecretCam');
    expect(original.xmpAsString).toContain('SecretPhotographer');
    for (const v of encoded.variants) {
      const meta = await sharp(v.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.icc).toBeUndefined(); // untagged output is sRGB by definition
      expect(meta.orientation).toBeUndefined();
      const text = v.bytes.toString('latin1');
      for (const secret of ['SecretCam', 'SecretPhotographer', 'GPS', 'Exif\0\0']) expect(text).not.toContain(secret);
    }
  });

  it('never enlarges: a 700-px original gives 480 and 700 only', async () => {
    const small = await encodePhoto(await scene(700, 500).png().toBuffer());
    expect(small).toMatchObject({ width: 700, height: 500 });
    expect(small.variants.map((v) => `${v.width}x${v.height}.${v.format}`)).toEqual(['480x343.avif', '480x343.webp', '480x343.jpeg', '700x500.avif', '700x500.webp', '700x500.jpeg']);
    const tiny = await encodePhoto(await scene(300, 200).jpeg().toBuffer());
    expect(tiny.variants.map((v) => v.width)).toEqual([300, 300, 300]);
  });

  it('converts a CMYK JPEG to sRGB with the right colours', async () => {
    const cmyk = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#d62828' } }).toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const photo = await encodePhoto(cmyk);
    for (const v of photo.variants) {
      const meta = await sharp(v.bytes).metadata();
      expect(meta).toMatchObject({ space: 'srgb', channels: 3 });
      const [r, g, b] = await pixel(v.bytes, 10, 10);
      // #d62828 is (214, 40, 40); through a CMYK profile and back it stays that red, not inverted or washed out.
      expect(Math.abs(r - 214)).toBeLessThan(30);
      expect(g).toBeLessThan(80);
      expect(b).toBeLessThan(80);
    }
    expect(photo.placeholder).toMatch(/^#[c-f][0-9a-f][0-4][0-9a-f][0-4][0-9a-f]$/);
  });

  it('keeps the transparency of a PNG in AVIF and WebP and puts JPEG on white', async () => {
    const half = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="800"><rect x="500" width="500" height="800" fill="#0a9396"/></svg>');
    const png = await sharp(half).png().toBuffer();
    expect((await sharp(png).metadata()).hasAlpha).toBe(true);
    const photo = await encodePhoto(png);
    expect(photo.variants.map((v) => v.width)).toEqual([480, 480, 480, 800, 800, 800, 1000, 1000, 1000]);
    for (const v of photo.variants) {
      const meta = await sharp(v.bytes).metadata();
      expect(meta.hasAlpha).toBe(v.format !== 'jpeg');
      const [r, g, b, a] = await pixel(v.bytes, 5, 5);
      if (v.format === 'jpeg') expect(Math.min(r, g, b)).toBeGreaterThan(245);
      else expect(a).toBeLessThan(10);
    }
  });

  it('takes every upload type and depth: AVIF, WebP, 16-bit PNG, greyscale, a Display P3 JPEG (back to the same sRGB colour)', async () => {
    const teal = () => sharp({ create: { width: 640, height: 480, channels: 3, background: '#2a9d8f' } });
    const srgbTeal = (await encodePhoto(await teal().png().toBuffer())).placeholder;
    const grey = (await encodePhoto(await teal().greyscale().png().toBuffer())).placeholder;
    expect(grey).toMatch(/^#(..)\1\1$/);
    const inputs: [string, Buffer, string][] = [
      ['avif', await teal().avif().toBuffer(), srgbTeal],
      ['webp', await teal().webp().toBuffer(), srgbTeal],
      ['png', await teal().toColourspace('rgb16').png().toBuffer(), srgbTeal],
      ['jpg', await teal().greyscale().jpeg().toBuffer(), grey],
      ['jpg', await teal().withIccProfile('p3').jpeg().toBuffer(), srgbTeal],
    ];
    for (const [ext, bytes, placeholder] of inputs) {
      const photo = await encodePhoto(bytes);
      expect(photo, ext).toMatchObject({ width: 640, height: 480, originalExt: ext, placeholder });
      expect(await sharp(photo.variants[5].bytes).metadata(), ext).toMatchObject({ width: 640, space: 'srgb', channels: 3, depth: 'uchar' });
    }
  });

  it('refuses what is not a still image it can decode, with the Korean reason (and never anything else)', async () => {
    const cases: [string, Uint8Array, keyof typeof PHOTO_REJECTIONS][] = [
      ['text', Buffer.from('안녕하세요, 이건 사진이 아닙니다.'), 'not-image'],
      ['empty', new Uint8Array(0), 'not-image'],
      ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'not-image'],
      ['bomb', await pngBomb(20_000), 'too-large'],
      ['a 13000×10 strip', await sharp({ create: { width: 13_000, height: 10, channels: 3, background: '#fff' } }).png().toBuffer(), 'too-large'],
      ['animated GIF', await animated('gif'), 'animated'],
      ['animated WebP', await animated('webp'), 'animated'],
      ['truncated JPEG', camera.subarray(0, Math.floor(camera.length / 2)), 'corrupt'],
      ['JPEG header then noise', Buffer.concat([camera.subarray(0, 2000), Buffer.alloc(50_000, 0x5a)]), 'corrupt'],
    ];
    for (const [label, bytes, reason] of cases) {
      const error = await rejection(bytes);
      expect(error, label).toBeInstanceOf(PhotoRejected);
      expect((error as PhotoRejected).reason, label).toBe(reason);
      expect((error as PhotoRejected).message, label).toBe(PHOTO_REJECTIONS[reason]);
    }
    expect(PHOTO_REJECTIONS['not-image']).toBe('이미지 파일만 올릴 수 있습니다.');
    expect(PHOTO_REJECTIONS['too-large']).toBe('이미지 크기가 너무 큽니다. (최대 4,000만 화소)');
    expect(PHOTO_REJECTIONS.animated).toBe('움직이는 이미지는 올릴 수 없습니다.');
    // The queue goes on after refusals.
    expect((await encodePhoto(await scene(200, 100).png().toBuffer())).variants).toHaveLength(3);
  });
});

/** Every HEIC refusal the pipeline gives, made from the fixture: label, bytes, reason. */
function badHeics(): [string, Buffer, keyof typeof PHOTO_REJECTIONS][] {
  const heic = phoneHeic();
  return [
    ['a HEIC cut off in its header', heic.subarray(0, 200), 'heic-corrupt'],
    ['a HEIC cut off in its picture', heic.subarray(0, heic.length - 400), 'heic-corrupt'],
    ['a HEIC whose picture is garbage', garbledPicture(heic), 'heic-corrupt'],
    ['a HEIC claiming 9000×6000 (54 MP)', claimingSize(heic, 9000, 6000), 'too-large'],
    ['a HEIC claiming 13000×100', claimingSize(heic, 13_000, 100), 'too-large'],
  ];
}

describe('encodePhoto with a HEIC (an iPhone photo)', () => {
  let heic: Buffer;
  let photo: EncodedPhoto;
  beforeAll(async () => {
    heic = phoneHeic();
    photo = await encodePhoto(heic);
  });

  it('decodes it (sharp alone cannot) and makes the same variants as any photo: AVIF, WebP and JPEG at each width, upright, sRGB', async () => {
    expect((await sharp(heic).metadata())).toMatchObject({ format: 'heif', compression: 'hevc', width: 900, height: 600 });
    await expect(sharp(heic).raw().toBuffer()).rejects.toThrow();
    expect(photo).toMatchObject({ width: 900, height: 600, originalExt: 'heic' });
    expect(photo.variants.map((v) => `${v.width}.${v.format}`)).toEqual(['480', '800', '900'].flatMap((w) => ['avif', 'webp', 'jpeg'].map((f) => `${w}.${f}`)));
    for (const v of photo.variants) {
      expect(MAGIC[v.format](v.bytes)).toBe(true);
      expect(await sharp(v.bytes).metadata()).toMatchObject({ width: v.width, height: Math.round((v.width * 600) / 900), space: 'srgb', channels: 3 });
    }
    const large = photo.variants.find((v) => v.width === 900 && v.format === 'jpeg')!;
    // The red corner stays top-left, the blue sky around it, the dark car below the middle.
    const [r, g, b] = await pixel(large.bytes, 20, 20);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(90);
    const sky = await pixel(large.bytes, 800, 100);
    expect(sky[2]).toBeGreaterThan(180);
    expect(sky[0]).toBeLessThan(80);
    expect((await pixel(large.bytes, 450, 390)).every((c) => c < 50)).toBe(true);
    expect(photo.placeholder).toMatch(/^#2[0-9a-f]6[0-9a-f]d[0-9a-f]$/); // the sky's #2a6fdb, give or take HEVC's rounding
  });

  it('drops its EXIF and GPS like any photo\'s: none in any variant', async () => {
    const original = await sharp(heic).metadata();
    expect(original.exif?.toString('latin1')).toContain('SecretPhone');
    expect(heic.toString('latin1')).toContain('SecretPhone');
    for (const v of photo.variants) {
      const meta = await sharp(v.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      const text = v.bytes.toString('latin1');
      for (const secret of ['SecretPhone', 'GPS', 'Exif\0\0']) expect(text).not.toContain(secret);
    }
  });

  it('refuses a damaged HEIC with its own Korean reason and a HEIC bomb from its header, never anything else; the queue goes on', async () => {
    for (const [label, bytes, reason] of badHeics()) {
      const error = await rejection(bytes);
      expect(error, label).toBeInstanceOf(PhotoRejected);
      expect((error as PhotoRejected).reason, label).toBe(reason);
      expect((error as PhotoRejected).message, label).toBe(PHOTO_REJECTIONS[reason]);
    }
    expect(PHOTO_REJECTIONS['heic-corrupt']).toBe('HEIC 사진이 손상되어 읽을 수 없습니다. 사진을 다시 내보내거나 JPEG로 올려주세요.');
    expect((await encodePhoto(heic)).id).toBe(photo.id);
  });
});

describe('saveEncoded', () => {
  let t: TestContext;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'photo-store-'));
  beforeAll(async () => {
    t = await createTestContext({ dataDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the photo in the database (the original privately) and the variants in DATA_DIR/images, once', async () => {
    await saveEncoded(t.database.db, dataDir, encoded, camera);
    expect(readdirSync(imagesDir(dataDir)).sort()).toEqual(encoded.variants.map((v) => v.name).sort());
    const [row] = await t.database.db.select().from(photos).where(eq(photos.id, encoded.id));
    expect(row).toMatchObject({ width: 3000, height: 4000, placeholder: encoded.placeholder, originalExt: 'jpg' });
    // The original as sent, EXIF and GPS included: for re-encoding later, never served.
    expect(row.original.equals(camera)).toBe(true);
    const stored = await t.database.db.select({ name: photoVariants.name, bytes: photoVariants.bytes }).from(photoVariants).where(eq(photoVariants.photoId, encoded.id));
    expect(stored.map((v) => v.name).sort()).toEqual(encoded.variants.map((v) => v.name).sort());
    for (const v of stored) expect(v.bytes.equals(encoded.variants.find((e) => e.name === v.name)!.bytes)).toBe(true);

    const written = (name: string) => statSync(path.join(imagesDir(dataDir), name)).mtimeMs;
    const before = encoded.variants.map((v) => written(v.name));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await saveEncoded(t.database.db, dataDir, encoded, camera);
    expect(encoded.variants.map((v) => written(v.name))).toEqual(before);
    expect(readdirSync(imagesDir(dataDir))).toHaveLength(12); // no temporary files left
    expect(await t.database.db.select({ name: photoVariants.name }).from(photoVariants)).toHaveLength(12);
  });

  it('serves a variant this replica never wrote from the database (another replica took the photo in), and keeps it then', async () => {
    const otherReplica = mkdtempSync(path.join(tmpdir(), 'photo-replica-'));
    try {
      const name = encoded.variants[4].name;
      const read = await readPhotoVariant(t.database.db, otherReplica, name);
      expect(read?.bytes.equals(encoded.variants[4].bytes)).toBe(true);
      expect(readdirSync(imagesDir(otherReplica))).toEqual([name]);
      expect(await readPhotoVariant(t.database.db, otherReplica, '0000000000000000-480.jpg')).toBeNull();
    } finally {
      rmSync(otherReplica, { recursive: true, force: true });
    }
  });
});

describe('POST /admin/uploads and GET /images/:name', () => {
  let t: TestContext;
  let staff: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'photo-route-'));

  beforeAll(async () => {
    t = await createTestContext({ dataDir });
    const s = await customer(t);
    await setStaffRole(t.database.db, s.user.email!, true);
    staff = s.token;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (content_type: string, bytes: Buffer) => t.call('POST', '/admin/uploads', { token: staff, json: { content_type, data: bytes.toString('base64') } });

  it('answers the address a gallery keeps and the encoded photo, and serves each variant for good', async () => {
    const res = await upload('image/jpeg', camera);
    expect(res.status).toBe(201);
    expect(res.body.data.url).toBe(`/api/images/${encoded.id}-1600.jpg`);
    const { photo } = res.body.data;
    expect(photo).toMatchObject({ id: encoded.id, width: 3000, height: 4000, placeholder: encoded.placeholder });
    expect(photo.variants).toHaveLength(12);
    expect(photo.variants[0]).toEqual({ width: 480, height: 640, format: 'avif', name: `${encoded.id}-480.avif` });
    for (const v of photo.variants as { name: string; format: 'avif' | 'webp' | 'jpeg' }[]) {
      const served = await t.app.request(`/images/${v.name}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe({ avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }[v.format]);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await served.arrayBuffer()).equals(encoded.variants.find((e) => e.name === v.name)!.bytes)).toBe(true);
    }
    // The original is kept privately (in the database); no route serves it, and no full-size copy is written.
    expect((await t.database.db.select({ id: photos.id }).from(photos)).map((r) => r.id)).toEqual([encoded.id]);
    expect((await t.app.request(`/images/${encoded.id}.jpg`)).status).toBe(400);
    expect((await t.app.request(`/uploads/${encoded.id}.jpg`)).status).toBe(400);
    expect(readdirSync(dataDir).sort()).toEqual(['images']);
    // The same photo again is the same photo.
    expect((await upload('image/jpeg', camera)).body.data.photo.id).toBe(encoded.id);
  });

  it('refuses with a Korean 422 what the pipeline cannot take, and keeps the 400 for content that is not the declared type', async () => {
    const cases: [string, Buffer, string][] = [
      ['image/png', await pngBomb(20_000), '이미지 크기가 너무 큽니다. (최대 4,000만 화소)'],
      ['image/webp', await animated('webp'), '움직이는 이미지는 올릴 수 없습니다.'],
      ['image/jpeg', Buffer.concat([camera.subarray(0, 2000), Buffer.alloc(50_000, 0x5a)]), PHOTO_REJECTIONS.corrupt],
    ];
    for (const [type, bytes, message] of cases) {
      const res = await upload(type, bytes);
      expect(res.status, message).toBe(422);
      expect(res.body).toMatchObject({ message, errors: { file: [message] } });
    }
    const text = await upload('image/png', Buffer.from('그냥 글자입니다'));
    expect(text.status).toBe(400);
    expect(text.body.message).toBe('이미지 파일이 아니거나 형식이 맞지 않습니다.');
    expect(readdirSync(imagesDir(dataDir))).toHaveLength(12); // nothing refused was written
  });

  it('takes a HEIC as image/heic or image/heif (one photo), and refuses a damaged one (422), a HEIC said to be a JPEG and a JPEG said to be a HEIC (400), in Korean', async () => {
    const heic = phoneHeic();
    const taken = await upload('image/heic', heic);
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(taken.body.data.photo).toMatchObject({ width: 900, height: 600 });
    expect(taken.body.data.photo.variants).toHaveLength(9);
    expect(taken.body.data.url).toBe(`/api/images/${taken.body.data.photo.id}-900.jpg`);
    const served = Buffer.from(await (await t.app.request(taken.body.data.url.replace(/^\/api/, ''))).arrayBuffer());
    expect(await sharp(served).metadata()).toMatchObject({ format: 'jpeg', width: 900, height: 600 });
    expect(served.toString('latin1')).not.toContain('SecretPhone');
    const [row] = await t.database.db.select({ originalExt: photos.originalExt }).from(photos).where(eq(photos.id, taken.body.data.photo.id));
    expect(row.originalExt).toBe('heic');
    expect((await upload('image/heif', heic)).body.data.photo.id).toBe(taken.body.data.photo.id);
    const stored = readdirSync(imagesDir(dataDir)).length;

    for (const [label, bytes, reason] of badHeics()) {
      const res = await upload('image/heic', bytes);
      expect(res.status, label).toBe(422);
      expect(res.body, label).toMatchObject({ message: PHOTO_REJECTIONS[reason], errors: { file: [PHOTO_REJECTIONS[reason]] } });
    }
    for (const [type, bytes] of [['image/jpeg', heic], ['image/heic', await scene(64, 48).jpeg().toBuffer()], ['image/heic', Buffer.from('IMG_0001.HEIC 아님')]] as const) {
      const res = await upload(type, bytes);
      expect(res.status, type).toBe(400);
      expect(res.body).toMatchObject({ message: '이미지 파일이 아니거나 형식이 맞지 않습니다.', errors: { file: ['JPEG, PNG, WebP, AVIF, HEIC 이미지만 올릴 수 있습니다.'] } });
    }
    expect(readdirSync(imagesDir(dataDir))).toHaveLength(stored); // nothing refused was written
  });

  it('takes only variant names on GET /images', async () => {
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'x.png', `${encoded.id}-480.png`, `${encoded.id.toUpperCase()}-480.jpg`, `${encoded.id}-0480.jpg`]) {
      expect((await t.app.request(`/images/${name}`)).status, name).toBe(400);
    }
    expect((await t.app.request('/images/0000000000000000-480.jpg')).status).toBe(404);
  });
});
