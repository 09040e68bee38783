import sharp from 'sharp';
import type { Page } from '@playwright/test';
import type { Car } from '../../src/domain/car';
import { expect, test } from './fixtures';
import { hydrated, newStaff, storeSession } from './users';

/** A photo-like JPEG (gradient, a dark car-like shape) of the given hue, as a phone might send it (EXIF orientation and GPS included). */
async function photo(hue: number): Promise<{ name: string; b64: string }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,35%)"/><stop offset="1" stop-color="hsl(${hue + 50},55%,75%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><rect x="500" y="950" width="1400" height="320" rx="90" fill="#151515"/></svg>`;
  const bytes = await sharp(Buffer.from(svg))
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 31/1 0/1' } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { name: `car-${hue}.jpg`, b64: bytes.toString('base64') };
}

/** Drops files on an element the way a desktop drag does (a DataTransfer holding them). */
async function dropFiles(page: Page, testId: string, files: { name: string; b64: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: 'image/jpeg' }));
    return dt;
  }, files);
  await page.getByTestId(testId).dispatchEvent('drop', { dataTransfer });
}

test('staff drop several photos, give each an alt text, reorder and remove them; the car page shows them as responsive pictures', { tag: '@both-viewports' }, async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const mobile = testInfo.project.name === 'mobile';
  // Each project edits its own car (other specs leave these alone).
  const id = mobile ? 57 : 56;
  const staff = await newStaff(request);
  await storeSession(page, staff);
  const before = (await (await request.get(`/api/subscriptions/cars/${id}`)).json()).data.car as Car;

  await page.goto('/admin');
  await hydrated(page);
  await page.getByLabel('검색').fill(String(id));
  await page.getByRole('button', { name: '검색' }).click();
  await page.getByRole('button', { name: `#${id} 편집` }).click();
  const items = page.getByTestId('gallery-item');
  await expect(items).toHaveCount(before.gallery.length);
  await expect(page.getByLabel('사진 1 설명')).toHaveValue(before.gallery[0].alt);

  // Two files dropped at once, a third from the file picker, one that is no image.
  const [red, blue, green] = await Promise.all([photo(0), photo(210), photo(120)]);
  await dropFiles(page, 'gallery-drop', [red, blue]);
  await expect(items).toHaveCount(before.gallery.length + 2, { timeout: 30_000 });
  await page.locator('#admin-gallery').setInputFiles([
    { name: green.name, mimeType: 'image/jpeg', buffer: Buffer.from(green.b64, 'base64') },
    { name: 'memo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
  ]);
  await expect(items).toHaveCount(before.gallery.length + 3, { timeout: 30_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'memo.pdf: JPEG, PNG, WebP, AVIF, HEIC 이미지만 올릴 수 있습니다.' })).toBeVisible();

  // Saving without alt texts is refused beside each new photo, and nothing changes.
  await page.getByRole('button', { name: '저장' }).click();
  const n = before.gallery.length;
  await expect(items.nth(n).getByText('이미지 설명을 입력해주세요.')).toBeVisible();
  expect((await (await request.get(`/api/subscriptions/cars/${id}`)).json()).data.car.gallery).toEqual(before.gallery);

  await page.getByLabel(`사진 ${n + 1} 설명`).fill('빨간 노을 앞 정측면');
  await page.getByLabel(`사진 ${n + 2} 설명`).fill('푸른 하늘 아래 후측면');
  await page.getByLabel(`사진 ${n + 3} 설명`).fill('초록 숲길의 측면');
  // The blue one first: dragged onto the first place; the green one moves up with the arrows; the old art goes.
  const reorder = await page.evaluateHandle(() => new DataTransfer());
  await items.nth(n + 1).dispatchEvent('dragstart', { dataTransfer: reorder });
  await items.nth(0).dispatchEvent('drop', { dataTransfer: reorder });
  await expect(page.getByLabel('사진 1 설명')).toHaveValue('푸른 하늘 아래 후측면');
  // Now [blue, art…, red, green]: red up to second place, green to third, one step at a time.
  for (let at = n + 2; at > 2; at--) await page.getByRole('button', { name: `사진 ${at} 앞으로` }).click();
  for (let at = n + 3; at > 3; at--) await page.getByRole('button', { name: `사진 ${at} 앞으로` }).click();
  await expect(page.getByLabel('사진 2 설명')).toHaveValue('빨간 노을 앞 정측면');
  await expect(page.getByLabel('사진 3 설명')).toHaveValue('초록 숲길의 측면');
  for (let i = 0; i < n; i++) await page.getByRole('button', { name: '사진 4 삭제' }).click();
  await expect(items).toHaveCount(3);
  await page.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('status').filter({ hasText: '저장했습니다.' })).toBeVisible();

  const after = (await (await request.get(`/api/subscriptions/cars/${id}`)).json()).data.car as Car;
  expect(after.gallery.map((g) => g.alt)).toEqual(['푸른 하늘 아래 후측면', '빨간 노을 앞 정측면', '초록 숲길의 측면']);
  expect(after.gallery.every((g) => g.photo && g.photo.width === 2400 && g.photo.height === 1600)).toBe(true);
  const version = (await (await request.get('/api/admin/publish', { headers: { authorization: `Bearer ${staff.access_token}` } })).json()).data.catalogueVersion as number;
  await expect.poll(async () => Number(await page.getByTestId('published-version').textContent()), { timeout: 180_000 }).toBeGreaterThanOrEqual(version);

  // The car page: the first photo is the LCP <picture> (AVIF chosen by width), the others lazy; no layout shift.
  // Every layout shift of the page's content counts (the header's login link turning into 마이페이지 is not the photos'); the
  // web font is kept out (its swap moves text by a pixel, nothing to do with photos).
  await page.route('**/fonts/**', (route) => route.abort());
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: string[] };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node: Node | null }[] })[]) {
        const inMain = e.sources.some((s) => (s.node instanceof Element ? s.node : s.node?.parentElement)?.closest('main'));
        if (!e.hadRecentInput && inMain) w.shifts.push(`${e.value}: ${e.sources.map((s) => (s.node instanceof Element ? s.node.outerHTML : (s.node?.textContent ?? '')).slice(0, 100)).join(' | ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/car/${id}`);
  const first = page.getByTestId('car-gallery').locator('img').first();
  await expect(first).toHaveAttribute('alt', '푸른 하늘 아래 후측면');
  await expect(first).toHaveAttribute('fetchpriority', 'high');
  await expect(first).toHaveAttribute('loading', 'eager');
  await expect(page.getByTestId('car-gallery').locator('img').nth(1)).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  const chosen = await first.evaluate((img: HTMLImageElement) => img.currentSrc);
  expect(chosen).toMatch(new RegExp(`/photos/${after.gallery[0].photo!.id}-\\d+\\.avif$`));
  // 1280 px at density 1: the 784-px column takes the 800 variant; a 390-px phone at density 2.75 (1,073 px) the 1200.
  expect(chosen).toContain(mobile ? '-1200.avif' : '-800.avif');
  const box = await first.boundingBox();
  expect(Math.round(box!.width / box!.height * 9)).toBe(16);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts)).toEqual([]);
  // Every image the page fetched came from the site's /photos/, none from the API.
  const images = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((u) => /\.(avif|webp|jpg)$/.test(u)));
  expect(images.length).toBeGreaterThan(0);
  for (const url of images) expect(new URL(url).pathname).toMatch(/^\/photos\//);
  if (mobile) {
    // The carousel shows one photo: the two beside it wait for a swipe.
    expect(images).toHaveLength(1);
    await page.getByTestId('car-gallery').evaluate((ul) => ul.scrollTo({ left: ul.clientWidth }));
    await expect.poll(() => page.getByTestId('car-gallery').locator('img').nth(1).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
});
