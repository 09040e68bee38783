import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { logIn, nextAlert, siteReady } from './users';

test.beforeEach(async ({ request }) => siteReady(request));

const TERMS = [1, 3, 6, 12, 24, 36, 48, 60, 72, 84, 96];
type Car = Record<string, any> & { id: number };

async function allCars(request: APIRequestContext): Promise<Car[]> {
  const cars: Car[] = [];
  for (let page = 1; ; page++) {
    const { data } = await (await request.get(`/api/subscriptions/garages?page=${page}`)).json();
    cars.push(...data.cars);
    if (!data.pagination_info.next) return cars;
  }
}
const terms = (car: Car) => TERMS.filter((t) => car[`subscription_fee_${t}`] !== null);
const won = (n: number) => `${n.toLocaleString('ko-KR')}원/월`;

/** Cars of the seed that show each edge: many terms, no fee at all, and only a few terms. */
async function pick(request: APIRequestContext) {
  const cars = await allCars(request);
  const full = cars.find((c) => terms(c).length >= 8)!;
  const none = cars.find((c) => terms(c).length === 0)!;
  const some = cars.find((c) => terms(c).length > 1 && terms(c).length < 6)!;
  expect([full, none, some].every(Boolean)).toBe(true);
  return { full, none, some };
}

test('the slider steps through the offered terms ascending, defaulting to the longest', async ({ page, request }) => {
  const { full, some } = await pick(request);
  for (const car of [full, some]) {
    const list = terms(car);
    await page.goto(`/car/${car.id}`);
    const slider = page.getByRole('slider', { name: '구독 기간' });
    const longest = list.at(-1)!;
    await expect(page.getByTestId('selected-month')).toHaveText(`${longest}개월`);
    await expect(page.getByTestId('monthly-fee')).toHaveText(won(car[`subscription_fee_${longest}`]));
    await expect(slider).toHaveAttribute('max', String(list.length - 1));
    await slider.focus();
    await page.keyboard.press('Home');
    for (const t of list) {
      await expect(page.getByTestId('selected-month')).toHaveText(`${t}개월`);
      await expect(slider).toHaveAttribute('aria-valuetext', `${t}개월`);
      await expect(page.getByTestId('monthly-fee')).toHaveText(won(car[`subscription_fee_${t}`]));
      await page.keyboard.press('ArrowRight');
    }
  }
});

test('a car without fees shows 문의 필요', async ({ page, request }) => {
  const { none } = await pick(request);
  await page.goto(`/car/${none.id}`);
  await expect(page.getByTestId('monthly-fee')).toHaveText('문의 필요');
  await expect(page.getByRole('slider')).toHaveCount(0);
});

test('the page shows tags, brand, name, model, description, struck-through retail price, specs and features', async ({ page, request }) => {
  const { full: car } = await pick(request);
  await page.goto(`/car/${car.id}`);
  const name = `${car.model.name} ${car.sub_model || car.trim}`.trim();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByTestId('car-panel')).toContainText(car.model.brand.name);
  await expect(page.getByTestId('car-panel')).toContainText(`모델 · ${car.model.name}`);
  await expect(page.getByText(car.description)).toBeVisible();
  await expect(page.getByTestId('retail-price')).toHaveText(`${car.retail_price.toLocaleString('ko-KR')}원`);
  expect(await page.getByTestId('retail-price').evaluate((el) => el.tagName)).toBe('S');
  const tags = [...(car.is_new ? ['신규'] : []), ...(car.is_hot ? ['인기'] : []), '프로모션'];
  await expect(page.getByRole('list', { name: '태그' }).getByRole('listitem')).toHaveText(tags);
  // Collapsible sections (제원 and 차량 정보: the spec's Specifications and Features) with the spec's fixed defaults in Korean.
  const specs = page.locator('details', { hasText: '제원' });
  for (const text of ['가솔린', '자동', 'AWD', '5인승']) await expect(specs).toContainText(text);
  await specs.locator('summary').click();
  await expect(specs.getByText('가솔린')).toBeHidden();
  await specs.locator('summary').click();
  await expect(specs.getByText('가솔린')).toBeVisible();
  const features = page.locator('details', { hasText: '차량 정보' });
  await expect(features).toContainText(car.trim || '기본 사양');
  await expect(features).toContainText(car.license_plate);
});

test('the gallery is a column on desktop and a swipe row on mobile; the panel is sticky and 400 px wide on desktop', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
  await page.goto('/car/1');
  const gallery = page.getByTestId('car-gallery');
  const [a, b] = await Promise.all([gallery.locator('li').nth(0).boundingBox(), gallery.locator('li').nth(1).boundingBox()]);
  if (isMobile) {
    expect(b!.x).toBeGreaterThan(a!.x);
    expect(await gallery.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await gallery.evaluate((el) => el.scrollTo({ left: el.clientWidth }));
    await expect.poll(() => gallery.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  } else {
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    const panel = page.getByTestId('car-panel');
    expect((await panel.boundingBox())!.width).toBe(400);
    expect(await panel.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
  }
});

test('구독 신청하기 (Inquire Now) without login alerts 로그인 후 이용 가능합니다. and goes to /login', async ({ page, request }) => {
  const { full: car } = await pick(request);
  await page.goto(`/car/${car.id}`);
  await expect(page.getByTestId('selected-month')).toHaveText(/개월/);
  const alert = nextAlert(page);
  await page.getByRole('button', { name: '구독 신청하기' }).click();
  expect(await alert).toBe('로그인 후 이용 가능합니다.');
  await expect(page).toHaveURL(/\/login$/);
});

test('구독 신청하기 (Inquire Now) when logged in goes to /inquire with the chosen month and car', async ({ page, request }) => {
  const { full: car } = await pick(request);
  const list = terms(car);
  await logIn(page);
  await page.goto(`/car/${car.id}`);
  const slider = page.getByRole('slider', { name: '구독 기간' });
  await expect(page.getByTestId('selected-month')).toHaveText(`${list.at(-1)}개월`);
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('selected-month')).toHaveText(`${list.at(-2)}개월`);
  await page.getByRole('button', { name: '구독 신청하기' }).click();
  await expect(page).toHaveURL(new RegExp(`/inquire\\?month=${list.at(-2)}&carId=${car.id}$`));
});

test('each car page has Product structured data and Open Graph tags', async ({ page, request }) => {
  const { full: car } = await pick(request);
  await page.goto(`/car/${car.id}`);
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(ld['@type']).toBe('Product');
  expect(ld.brand.name).toBe(car.model.brand.name);
  expect(ld.offers.priceCurrency).toBe('KRW');
  expect(ld.offers.price).toBe(car[`subscription_fee_${terms(car).at(-1)}`]);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', new RegExp(car.model.name));
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/cars\/.+\.svg$/);
});

test.describe('a car that is not in the build', () => {
  test('loads from the API', async ({ page, request }) => {
    const { data } = await (await request.get('/api/subscriptions/cars/2')).json();
    const fresh = { ...data.car, id: 987654, sub_model: 'After-build Edition' };
    await page.route('**/api/subscriptions/cars/987654', (route) => route.fulfill({ json: { code: 0, message: 'OK', data: { car: fresh } } }));
    await page.goto('/car/987654');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${fresh.model.name} After-build Edition`);
    await expect(page.getByTestId('monthly-fee')).toBeVisible();
    await expect(page).toHaveTitle(/After-build Edition/);
  });

  test('shows 차량 정보를 찾을 수 없습니다. with a way home when the car does not exist', async ({ page }) => {
    await page.goto('/car/99999999');
    await expect(page.getByText('차량 정보를 찾을 수 없습니다.')).toBeVisible();
    await page.getByRole('link', { name: '홈으로 돌아가기' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('shows the load-failure placeholder when the API fails', async ({ page }) => {
    await page.route('**/api/subscriptions/cars/**', (route) => route.fulfill({ status: 500, json: { code: 9000, message: '서버 오류', errors: {} } }));
    await page.goto('/car/99999998');
    await expect(page.getByRole('heading', { name: '차량 정보를 불러올 수 없습니다' })).toBeVisible();
    await expect(page.getByText('차량 정보를 불러오는 중 오류가 발생했습니다.')).toBeVisible();
    await expect(page.getByRole('link', { name: '홈으로 돌아가기' })).toHaveAttribute('href', '/');
  });
});
