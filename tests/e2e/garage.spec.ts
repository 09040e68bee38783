import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { hydrated, siteReady } from './users';

test.beforeEach(async ({ request }) => siteReady(request));

type Car = { id: number; is_new: boolean; is_hot: boolean; is_subscriptable: boolean; subscription_available_from: string | null };

async function garageApi(request: APIRequestContext, query = '') {
  return (await (await request.get(`/api/subscriptions/garages?${query}`)).json()).data as {
    cars: Car[];
    garage_list: { slug: string; name: string }[];
    pagination_info: { count: number; next: number | null; total_pages: number };
  };
}

/** Every car of the default garage, in garage order. */
async function allGarageCars(request: APIRequestContext) {
  const cars: Car[] = [];
  for (let page = 1; ; page++) {
    const data = await garageApi(request, `page=${page}`);
    cars.push(...data.cars);
    if (!data.pagination_info.next) return cars;
  }
}

const count = (page: Page) => page.getByTestId('garage-count');
const cards = (page: Page) => page.getByTestId('garage-grid').locator('[data-car-id]');
/** Scrolls to the last card until everything is loaded. */
async function loadAll(page: Page, total: number) {
  await expect
    .poll(async () => {
      await cards(page).last().scrollIntoViewIfNeeded();
      return count(page).textContent();
    }, { timeout: 30_000 })
    .toBe(`${total} / ${total}대`);
}

const garageRequest = (page: Page, test: (q: URLSearchParams) => boolean) =>
  page.waitForRequest((r) => r.url().includes('/api/subscriptions/garages') && test(new URL(r.url()).searchParams));

/** Picks a brand on either layout: the list on desktop, the dropdown on mobile. */
async function chooseBrand(page: Page, isMobile: boolean, name: string, slug: string) {
  if (isMobile) await page.getByLabel('브랜드 선택').selectOption(slug);
  else await page.getByRole('navigation', { name: '브랜드' }).getByRole('button', { name, exact: true }).click();
}

test('the first page is in the pre-rendered HTML', async ({ request }) => {
  // The server answers 503 until its first build is in place.
  await expect.poll(async () => (await request.get('/garage')).status(), { timeout: 60_000 }).toBe(200);
  const html = await (await request.get('/garage')).text();
  const api = await garageApi(request);
  expect(html).toContain('전체 브랜드');
  expect(html).toContain(`/car/${api.cars[0].id}`);
  expect(html).toMatch(new RegExp(`${api.cars.length}(<!-- -->)? / (<!-- -->)?${api.pagination_info.count}(<!-- -->)?대`));
});

test('a brand filter refetches page 1, shows the brand title and count, and lives in the URL', { tag: '@both-viewports' }, async ({ page, request, isMobile }) => {
  const ferrari = await garageApi(request, 'brand=ferrari');
  await page.goto('/garage');
  await hydrated(page, 'GarageBrowser');
  await expect(page.getByTestId('garage-title')).toHaveText('전체 브랜드');
  const req = garageRequest(page, (q) => q.get('brand') === 'ferrari' && q.get('page') === '1');
  await chooseBrand(page, isMobile, 'Ferrari', 'ferrari');
  await req;
  await expect(page).toHaveURL(/\/garage\?brand=ferrari$/);
  await expect(page.getByTestId('garage-title')).toHaveText('Ferrari');
  await expect(count(page)).toHaveText(`${ferrari.cars.length} / ${ferrari.pagination_info.count}대`);
  await expect(cards(page).first()).toHaveAttribute('data-car-id', String(ferrari.cars[0].id));
});

test('months, availability and sort each reset to page 1 and refetch, and back restores the filters', async ({ page, request }) => {
  await page.goto('/garage?brand=porsche');
  await hydrated(page, 'GarageBrowser');
  await expect(page.getByTestId('garage-title')).toHaveText('Porsche');
  // Scroll once so page 2 is loaded: the next filter must start again at page 1.
  await page.getByTestId('garage-grid').locator('li').last().scrollIntoViewIfNeeded();

  let req = garageRequest(page, (q) => q.getAll('month').join() === '12' && q.get('page') === '1' && q.get('brand') === 'porsche');
  await page.getByRole('group', { name: '기간(개월)' }).getByRole('button', { name: '12', exact: true }).click();
  await req;
  await expect(page).toHaveURL(/brand=porsche&month=12/);

  req = garageRequest(page, (q) => q.get('available_only') === 'true' && q.get('page') === '1');
  await page.getByRole('button', { name: '지금 구독 가능' }).click();
  await req;
  const expected = await garageApi(request, 'brand=porsche&month=12&available_only=true');
  await expect(count(page)).toHaveText(`${expected.cars.length} / ${expected.pagination_info.count}대`);

  req = garageRequest(page, (q) => q.get('sort') === 'mileage' && q.get('order') === 'desc' && q.get('page') === '1');
  await page.getByLabel('정렬').selectOption({ label: '주행거리 긴 순' });
  await req;
  const sorted = await garageApi(request, 'brand=porsche&month=12&available_only=true&sort=mileage&order=desc');
  await expect(cards(page).first()).toHaveAttribute('data-car-id', String(sorted.cars[0].id));
  await expect(page).toHaveURL(/sort=mileage&order=desc/);

  // Back: the URL and the filters step back together.
  await page.goBack();
  await expect(page).toHaveURL(/\/garage\?brand=porsche&month=12&available=true$/);
  await expect(page.getByLabel('정렬')).toHaveValue('');
  await page.goBack();
  await expect(page).toHaveURL(/\/garage\?brand=porsche&month=12$/);
  await expect(page.getByRole('button', { name: '전체', exact: true }).and(page.locator('[aria-pressed="true"]'))).toHaveCount(1);
  await page.goBack();
  await expect(page.getByRole('group', { name: '기간(개월)' }).getByRole('button', { name: '전체' })).toHaveAttribute('aria-pressed', 'true');
  const porsche = await garageApi(request, 'brand=porsche');
  await expect(count(page)).toHaveText(new RegExp(` / ${porsche.pagination_info.count}대$`));
});

test('scrolling appends pages until all are loaded, showing 더 불러오는 중... meanwhile', async ({ page, request }) => {
  const first = await garageApi(request);
  await page.goto('/garage');
  await hydrated(page, 'GarageBrowser');
  await expect(count(page)).toHaveText(`${first.cars.length} / ${first.pagination_info.count}대`);
  // Hold page 2 back to see the loading line.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/subscriptions/garages?page=2', async (route) => {
    await held;
    await route.continue();
  });
  await cards(page).last().scrollIntoViewIfNeeded();
  await expect(page.getByText('더 불러오는 중...')).toBeVisible();
  release();
  await expect(count(page)).toHaveText(`${first.cars.length * 2} / ${first.pagination_info.count}대`);
  await loadAll(page, first.pagination_info.count);
  await expect(page.getByText('더 불러오는 중...')).toHaveCount(0);
});

test('cards follow the availability rules and carry the Promoted and Sale labels, read as 프로모션 and 세일', { tag: '@both-viewports' }, async ({ page, request }) => {
  const all = await allGarageCars(request);
  const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
  const byDate = (c: Car) => !c.subscription_available_from || c.subscription_available_from <= today;
  // The seed has every case: future start date, not subscriptable, and both labels.
  expect(all.some((c) => !byDate(c))).toBe(true);
  expect(all.some((c) => byDate(c) && !c.is_subscriptable)).toBe(true);
  await page.goto('/garage');
  await hydrated(page, 'GarageBrowser');
  await loadAll(page, all.length);
  await expect(cards(page)).toHaveCount(all.length);
  // Every card read in one pass (the e2e seed has 160 cars; one round trip per assertion would not fit the test's time).
  const shown = new Map(
    (
      await page.getByTestId('garage-grid').locator('[data-car-id]').evaluateAll((els) =>
        els.map((el) => ({
          id: Number(el.getAttribute('data-car-id')),
          active: el.getAttribute('data-active'),
          tag: el.tagName,
          href: el.getAttribute('href'),
          opacity: getComputedStyle(el.querySelector('img')!.parentElement!).opacity,
          labels: [...el.querySelectorAll('[data-label]')].map((l) => `${l.getAttribute('data-label')}:${l.textContent}`),
        })),
      )
    ).map((c) => [c.id, c]),
  );
  for (const car of all) {
    const card = shown.get(car.id);
    const active = car.is_subscriptable && byDate(car);
    expect(card, `car ${car.id}`).toBeDefined();
    expect(card!.active).toBe(String(active));
    expect(card!.tag).toBe(byDate(car) ? 'A' : 'DIV');
    if (byDate(car)) expect(card!.href).toBe(`/car/${car.id}`);
    // Only the picture is dimmed; labels and text keep a readable contrast.
    expect(card!.opacity).toBe(active ? '1' : '0.5');
    expect(card!.labels).toEqual([...(car.is_hot ? ['Promoted:프로모션'] : []), ...(car.is_new ? ['Sale:세일'] : [])]);
  }
  // The first card is the wide featured one.
  const [a, b] = await Promise.all([cards(page).nth(0).boundingBox(), cards(page).nth(1).boundingBox()]);
  expect(a!.width).toBeGreaterThan(b!.width * 1.5 - (page.viewportSize()!.width < 640 ? b!.width : 0));
});

test('an unknown brand resets to 전체 (All); others is kept', async ({ page }) => {
  await page.goto('/garage?brand=trabant');
  await hydrated(page, 'GarageBrowser');
  await expect(page).toHaveURL(/\/garage$/);
  await expect(page.getByTestId('garage-title')).toHaveText('전체 브랜드');
  // Compared with the answer the page itself got: parallel tests may add cars between two reads.
  const answered = page.waitForResponse((res) => res.url().includes('/api/subscriptions/garages?') && res.url().includes('brand=others'));
  await page.goto('/garage?brand=others');
  const others = ((await (await answered).json()) as { data: Awaited<ReturnType<typeof garageApi>> }).data;
  expect(others.pagination_info.count).toBeGreaterThan(0);
  await hydrated(page, 'GarageBrowser');
  await expect(page.getByTestId('garage-title')).toHaveText('기타 브랜드');
  await expect(count(page)).toHaveText(`${others.cars.length} / ${others.pagination_info.count}대`);
  await expect(page).toHaveURL(/\/garage\?brand=others$/);
});

test('a failed fetch shows a retry instead of an empty page; retry loads', async ({ page }) => {
  await page.route('**/api/subscriptions/garages**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":1,"message":"x"}' }));
  const warned = page.waitForEvent('console', (m) => m.type() === 'warning' && m.text().includes('Failed to fetch garage data'));
  await page.goto('/garage?brand=bmw');
  await hydrated(page, 'GarageBrowser');
  await warned;
  const retry = page.getByRole('button', { name: '다시 시도' });
  await expect(retry).toBeVisible();
  await expect(page.getByTestId('garage-grid')).toHaveCount(0);
  await page.unroute('**/api/subscriptions/garages**');
  await retry.click();
  await expect(page.getByTestId('garage-title')).toHaveText('BMW');
  await expect(cards(page).first()).toBeVisible();
});

test('changing a filter shows 차량 정보를 불러오는 중... until the cars arrive', async ({ page }) => {
  await page.goto('/garage');
  await hydrated(page, 'GarageBrowser');
  await expect(cards(page).first()).toBeVisible();
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/subscriptions/garages**', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('group', { name: '기간(개월)' }).getByRole('button', { name: '36', exact: true }).click();
  await expect(page.getByText('차량 정보를 불러오는 중...')).toBeVisible();
  release();
  await expect(page.getByText('차량 정보를 불러오는 중...')).toHaveCount(0);
  await expect(cards(page).first()).toBeVisible();
});
