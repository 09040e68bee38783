import { chromium } from '@playwright/test';
import sharp from 'sharp';

/**
 * The photographs bench: a car page with `count` uploaded 4000×3000 phone photos. Each photo is
 * made here: a scene with texture at every scale (luminance noise from 1/32 to full size, as
 * foliage, asphalt and paint give a real one), about 4 MB as a phone's JPEG, which encodes
 * larger than most real photos (a conservative figure).
 */
export async function phonePhoto(seed: number): Promise<Buffer> {
  const W = 4000;
  const H = 3000;
  const hue = (seed * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,70%)"/><stop offset="0.55" stop-color="hsl(${hue + 30},35%,55%)"/><stop offset="1" stop-color="hsl(${hue + 60},15%,25%)"/></linearGradient>
    <radialGradient id="sun" cx="0.7" cy="0.3" r="0.4"><stop offset="0" stop-color="#fff7d0" stop-opacity="0.9"/><stop offset="1" stop-color="#fff7d0" stop-opacity="0"/></radialGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/><rect width="100%" height="100%" fill="url(#sun)"/>
    <path d="M0 ${H * 0.62} Q ${W * 0.3} ${H * 0.5} ${W * 0.6} ${H * 0.6} T ${W} ${H * 0.55} V ${H} H 0 Z" fill="hsl(${hue + 90},25%,22%)"/>
    <g transform="translate(${W * 0.18} ${H * 0.52})"><path d="M0 420 Q 60 250 600 220 Q 900 60 1500 80 Q 2100 100 2500 300 Q 2700 340 2700 480 L 2700 620 L 0 620 Z" fill="hsl(${seed * 90},70%,30%)"/>
    <circle cx="600" cy="620" r="230" fill="#111"/><circle cx="2150" cy="620" r="230" fill="#111"/></g></svg>`;
  const octave = (shrink: number, sigma: number) =>
    sharp({ create: { width: Math.ceil(W / shrink), height: Math.ceil(H / shrink), channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } } })
      .greyscale()
      .resize(W, H, { kernel: 'cubic' })
      .toColourspace('srgb')
      .png({ compressionLevel: 0 })
      .toBuffer();
  const layers = await Promise.all([octave(32, 60), octave(8, 45), octave(2, 30), octave(1, 18)]);
  return sharp(Buffer.from(svg))
    .composite(layers.map((input) => ({ input, blend: 'soft-light' as const })))
    .withExif({ IFD0: { Make: 'BenchPhone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 31/1 0/1' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export interface PhotoFigures {
  photos: number;
  /** Size of each original (MB) and the upload + encode time of each (s). */
  originalMb: number[];
  uploadSeconds: number[];
  /** The gallery edit (8 photos) until the served car page shows them. */
  galleryEditToLiveSeconds: number | null;
  /** A price edit, and an edit adding one more (already uploaded) photo, until the car page shows them: their difference is what a photo adds to a publish. */
  priceEditToLiveSeconds: number | null;
  photoEditToLiveSeconds: number | null;
  /** Image bytes (encoded body) the car page fetched in its first view, per viewport. */
  firstViewImageBytes: Record<string, { bytes: number; images: number; urls: string[] }>;
  lighthouse?: { performance: number; accessibility: number; cls: number; lcpMs: number; tbtMs: number };
}

type Lighthouse = (url: string, pages: string[]) => Promise<Record<string, NonNullable<PhotoFigures['lighthouse']>>>;

/** Polls the served page until it contains `text` (at most 10 minutes); seconds since `t0`, or null. */
async function liveAfter(url: string, text: string, t0: number): Promise<number | null> {
  while (performance.now() - t0 < 600_000) {
    if ((await (await fetch(url)).text()).includes(text)) return +((performance.now() - t0) / 1000).toFixed(1);
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

/** Image bytes of the first view: the page loaded at `width`×844 and `dpr`, left alone for 3 s (nothing scrolled or swiped). */
async function firstViewBytes(url: string, width: number, dpr: number) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width, height: 844 }, deviceScaleFactor: dpr, isMobile: width < 768, hasTouch: width < 768 });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(3000);
    const entries = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.initiatorType === 'img' || /\.(avif|webp|jpg|png|svg)$/.test(e.name)).map((e) => ({ url: e.name, bytes: e.encodedBodySize })),
    );
    return { bytes: entries.reduce((sum, e) => sum + e.bytes, 0), images: entries.length, urls: entries.map((e) => new URL(e.url).pathname) };
  } finally {
    await browser.close();
  }
}

/**
 * Uploads `count` phone photos as staff (the machine token) into car 1's gallery, publishes, and
 * measures: upload time per photo, the edit to a live page, the first view's image bytes at 390 px
 * (densities 2 and 3) and 1280 px, Lighthouse mobile on the page, and what one more photo adds to
 * an edit's publish beside a price edit.
 */
export async function photoBench(opts: { url: string; adminToken: string; count?: number; lighthouse?: Lighthouse }): Promise<PhotoFigures> {
  const count = opts.count ?? 8;
  const admin = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${opts.url}/api/admin${path}`, { method, headers: { authorization: `Bearer ${opts.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: unknown }).data;
  };
  const upload = async (seed: number) => {
    const bytes = await phonePhoto(seed);
    const t0 = performance.now();
    const answer = (await admin('POST', '/uploads', { content_type: 'image/jpeg', data: bytes.toString('base64') })) as { url: string; photo: { id: string } };
    return { ...answer, mb: +(bytes.length / 1024 / 1024).toFixed(2), seconds: +((performance.now() - t0) / 1000).toFixed(2) };
  };

  const uploaded = [];
  for (let i = 0; i < count; i++) uploaded.push(await upload(i + 1));
  const gallery = uploaded.map((u, i) => ({ src: u.url, alt: `벤치 차량 사진 ${i + 1}` }));
  let t0 = performance.now();
  await admin('PATCH', '/cars/1', { gallery });
  const galleryEditToLiveSeconds = await liveAfter(`${opts.url}/car/1`, uploaded[count - 1].photo.id, t0);

  const firstViewImageBytes = {
    '390px@3x': await firstViewBytes(`${opts.url}/car/1`, 390, 3),
    '390px@2x': await firstViewBytes(`${opts.url}/car/1`, 390, 2),
    '1280px@1x': await firstViewBytes(`${opts.url}/car/1`, 1280, 1),
  };
  const lighthouse = opts.lighthouse ? (await opts.lighthouse(opts.url, ['/car/1']))['/car/1'] : undefined;

  // What one photo adds to a publish: a price edit, then an edit adding a photo uploaded beforehand.
  const price = 123_450_000 + Math.floor(Math.random() * 1000) * 10_000;
  t0 = performance.now();
  await admin('PATCH', '/cars/1', { retail_price: price });
  const priceEditToLiveSeconds = await liveAfter(`${opts.url}/car/1`, price.toLocaleString('en-US'), t0);
  const extra = await upload(count + 1);
  t0 = performance.now();
  await admin('PATCH', '/cars/1', { gallery: [...gallery, { src: extra.url, alt: '벤치 차량 사진 추가' }] });
  const photoEditToLiveSeconds = await liveAfter(`${opts.url}/car/1`, extra.photo.id, t0);

  const figures: PhotoFigures = {
    photos: count,
    originalMb: uploaded.map((u) => u.mb),
    uploadSeconds: [...uploaded, extra].map((u) => u.seconds),
    galleryEditToLiveSeconds,
    priceEditToLiveSeconds,
    photoEditToLiveSeconds,
    firstViewImageBytes,
    lighthouse,
  };
  console.log(`\nPhotos: ${count} uploads of ${Math.min(...figures.originalMb)}–${Math.max(...figures.originalMb)} MB took ${Math.min(...figures.uploadSeconds)}–${Math.max(...figures.uploadSeconds)} s each (encode included)`);
  console.log(`  gallery edit → live ${galleryEditToLiveSeconds} s; price edit → live ${priceEditToLiveSeconds} s; adding one photo → live ${photoEditToLiveSeconds} s`);
  for (const [view, f] of Object.entries(firstViewImageBytes)) console.log(`  first view ${view}: ${(f.bytes / 1024).toFixed(1)} KB in ${f.images} image(s): ${f.urls.join(' ')}`);
  if (lighthouse) console.log(`  Lighthouse mobile /car/1: performance ${lighthouse.performance}, CLS ${lighthouse.cls}, LCP ${lighthouse.lcpMs} ms, TBT ${lighthouse.tbtMs} ms`);
  return figures;
}
