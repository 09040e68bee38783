import { expect, test } from './fixtures';
import { hydrated, loginAs, newUser, waitForSite } from './users';

/**
 * Issue 49: tap targets under 44 px at 390 px: the term slider (16 px tall) and the order page's
 * 약관 보기 buttons (29×36). Each must give a finger 44 px.
 */
test.beforeAll(async ({ request }) => waitForSite(request));

async function anyCarId(request: import('@playwright/test').APIRequestContext): Promise<number> {
  const cars = (await (await request.get('/api/subscriptions/garages?month=12&page=1')).json()).data.cars as { id: number }[];
  return cars[0].id;
}

test('the term slider on the car page is 44 px tall', async ({ page, request }) => {
  await page.goto(`/car/${await anyCarId(request)}`);
  await hydrated(page);
  const slider = page.locator('#month-slider');
  await expect(slider).toBeVisible();
  expect((await slider.boundingBox())!.height).toBeGreaterThanOrEqual(44);
});

test('the order page’s 보기 buttons of the terms are 44 × 44 px', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${await anyCarId(request)}`);
  await hydrated(page);
  const views = page.getByRole('button', { name: / 보기$/ });
  await expect(views.first()).toBeVisible();
  for (const box of await views.all()) {
    const b = (await box.boundingBox())!;
    expect(Math.min(b.width, b.height)).toBeGreaterThanOrEqual(44);
  }
});
