import sharp from 'sharp';
import type { Car } from '../../src/domain/car';
import { expect, test } from './fixtures';
import { hydrated, newStaff, storeSession } from './users';

/** A portrait phone photo (1200×1600): the car, a dark band, sits in the top quarter, where a centred 16:9 crop would cut it off. */
const portrait = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600"><rect width="100%" height="100%" fill="#c9d6df"/><rect x="150" y="220" width="900" height="260" rx="80" fill="#1b1b1b"/></svg>`,
    ),
  )
    .jpeg({ quality: 85 })
    .toBuffer();

test('staff tap the point of a portrait photo the car page must keep; the console frames the crop and the car page shows it at 390 px', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const id = 58; // no other spec edits this car
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
  for (let i = 0; i < before.gallery.length; i++) await page.getByRole('button', { name: '사진 1 삭제' }).click();
  await expect(items).toHaveCount(0);

  await page.locator('#admin-gallery').setInputFiles([{ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: await portrait() }]);
  await expect(items).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByText('밝은 틀이 차량 페이지에 보이는 부분입니다.', { exact: false })).toBeVisible();

  // Centred at first: the 16:9 frame (1200×675 of the photo) sits in the middle, below the car.
  const target = page.getByTestId('gallery-focus');
  const crop = page.getByTestId('gallery-crop');
  await expect(target).toHaveAttribute('data-focus', '50 50');
  await expect(crop).toHaveAttribute('y', '462.5');
  await expect(crop).toHaveAttribute('height', '675');

  // A tap on the car, 20% down the photo (the photo is drawn whole, centred in its 4:3 box).
  const box = (await target.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.2);
  await expect(target).toHaveAttribute('data-focus', '50 20');
  await expect(target).toHaveAccessibleName(/사진 1 초점: 가로 50%, 세로 20%/);
  await expect(crop).toHaveAttribute('y', '185');
  // The keyboard moves it too, 5% a step.
  await target.focus();
  await page.keyboard.press('ArrowUp');
  await expect(target).toHaveAttribute('data-focus', '50 15');
  await page.keyboard.press('ArrowDown');
  await expect(target).toHaveAttribute('data-focus', '50 20');
  await page.screenshot({ path: testInfo.outputPath('console-focus.png') });

  await page.getByLabel('사진 1 설명').fill('세로로 찍은 정측면');
  await page.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('status').filter({ hasText: '저장했습니다.' })).toBeVisible();
  const after = (await (await request.get(`/api/subscriptions/cars/${id}`)).json()).data.car as Car;
  expect(after.gallery).toHaveLength(1);
  expect(after.gallery[0]).toMatchObject({ alt: '세로로 찍은 정측면', focus: { x: 50, y: 20 }, photo: { width: 1200, height: 1600 } });

  const version = (await (await request.get('/api/admin/publish', { headers: { authorization: `Bearer ${staff.access_token}` } })).json()).data.catalogueVersion as number;
  await expect.poll(async () => Number(await page.getByTestId('published-version').textContent()), { timeout: 180_000 }).toBeGreaterThanOrEqual(version);

  // The car page on a phone: the photo fills the 16:9 slot, cropped around the point staff chose.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/car/${id}`);
  const first = page.getByTestId('car-gallery').locator('img').first();
  await expect(first).toHaveAttribute('alt', '세로로 찍은 정측면');
  expect(await first.evaluate((img) => getComputedStyle(img).objectPosition)).toBe('50% 20%');
  expect(await first.evaluate((img) => getComputedStyle(img).objectFit)).toBe('cover');
  const slot = (await first.boundingBox())!;
  expect(Math.round((slot.width / slot.height) * 9)).toBe(16);
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: testInfo.outputPath('car-page-390.png') });
});
