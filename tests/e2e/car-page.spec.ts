import { expect, test } from './fixtures';

test('npm start serves a pre-rendered car page with its fees per term', async ({ page, request }) => {
  const res = await request.get('/api/subscriptions/cars/1');
  const { car } = (await res.json()).data;
  await page.goto('/car/1');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(car.model.name);
  await expect(page.getByText(car.model.brand.name).first()).toBeVisible();
  await expect(page.getByText(/^[\d,]+원\/월$/).first()).toBeVisible();
});
