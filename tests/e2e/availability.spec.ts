import { addDays, addMonths, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { loginAs, newUser, orderableCar, placeRequest, waitForSite } from './users';

/** Issue 38: the static pages say what is true now (a small live read), and the order page picks a free start. */

test.beforeAll(async ({ request }) => waitForSite(request));

const dot = (d: string) => d.replaceAll('-', '.');

test('a held car: its page says from when it can be subscribed, and the order page starts on that day', async ({ page, request }) => {
  const car = await orderableCar(request);
  await page.goto(`/car/${car.id}`);
  await expect(page.getByTestId('car-availability')).toHaveText('구독 가능');

  const holder = await newUser(request);
  await placeRequest(request, holder.token, car.id, { month: 12 });
  const free = addMonths(addDays(todayInKorea(), 1), 12);
  await page.reload();
  await expect(page.getByTestId('car-availability')).toHaveText(`${dot(free)}부터 구독 가능`);

  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await expect(page.getByTestId('order-availability')).toHaveText(`${dot(free)}부터 구독 가능`);
  await expect(page.getByTestId('order-start-date')).toHaveValue(free);
});

test('home cards and garage cards show the live line', async ({ page }) => {
  await page.route('**/api/subscriptions/availability?*', async (route) => {
    const ids = new URL(route.request().url()).searchParams.get('ids')!.split(',').map(Number);
    await route.fulfill({ json: { code: 0, message: 'ok', data: { availability: ids.map((id) => ({ car_id: id, available_from: '2031-03-01', text: '2031.03.01부터 구독 가능' })) } } });
  });
  await page.goto('/');
  await expect(page.locator('[data-car-card] [data-availability]').first()).toHaveText('2031.03.01부터 구독 가능');
  await page.goto('/garage');
  await expect(page.locator('[data-availability-live]').first()).toHaveText('2031.03.01부터 구독 가능');
});
