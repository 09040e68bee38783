import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, orderableCar, waitForSite } from './users';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';

/**
 * Issue 48, 운전자격 확인 on the order page: a customer with no checked licence checks theirs before
 * the card window (a refused one says why in Korean), sees it masked, and orders; staff see the
 * drivers' licences on the desk.
 */
test.beforeAll(async ({ request }) => waitForSite(request));

test('the customer checks their licence on the order page: refused with the reason, then checked, masked, and ordered without the optional 위치정보 consent', async ({ page, request }) => {
  const { id } = await orderableCar(request);
  const user = await newUser(request, { licence: false, birth_date: '1988-08-08' });
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${id}`);
  const section = page.getByTestId('order-licences');
  await expect(section.getByRole('heading', { name: '운전면허 확인' })).toBeVisible();
  await expect(page.getByTestId('order-licence-rules')).toContainText('면허 취득 후 1년이 지나지 않은 운전자는 등록할 수 없습니다.');
  await page.getByLabel('전체 동의').check();
  // The car's 위치정보 is the one optional consent: refused, the order goes on.
  await page.getByLabel('[선택] 위치정보 이용약관 동의').uncheck();
  // Without a checked licence the order cannot be placed.
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();

  const holder = section.getByRole('heading', { name: '계약자 본인' }).locator('..');
  await holder.getByLabel('면허 종류').selectOption('CLASS1_ORDINARY');
  // The sandbox answers 효력 정지 for a number ending in 91.
  await holder.getByLabel('면허번호').fill('서울 12-345678-91');
  await holder.getByRole('button', { name: '면허 확인' }).click();
  await expect(holder.getByRole('alert')).toHaveText('운전면허의 효력이 정지된 상태입니다. 정지 기간에는 차량을 인도할 수 없습니다.');
  await expect(page.getByTestId('holder-licence')).toContainText('효력 정지');
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();

  await holder.getByLabel('면허번호').fill('서울 12-345678-01');
  await holder.getByRole('button', { name: '면허 확인' }).click();
  const card = page.getByTestId('holder-licence');
  await expect(card).toHaveAttribute('data-status', 'VALID');
  await expect(card).toContainText('1종 보통 · 11-12-******-** 확인 완료');
  await expect(section).not.toContainText('345678');
  await expect(page.getByTestId('age-band-note')).toHaveText('확인된 운전면허의 생년월일(구독 시작일 기준)로 정해집니다.');
  await expect(page.getByRole('radio', { name: /만 26세 이상/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /만 21~25세/ })).toBeDisabled();

  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' })).toBeVisible();

  const requests = await apiAs(request, user.token, 'GET', '/subscriptions/requests');
  const requestId = requests.body.data.subscription_requests[0].id as number;
  const desk = await request.get('/api/admin/subscription-requests', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  const row = (await desk.json()).data.requests.find((r: { id: number }) => r.id === requestId);
  expect(row.location_consent).toBe(false);
  expect(row.drivers).toEqual([expect.objectContaining({ role: 'HOLDER', status: 'VALID', number: '11-12-******-**', birth_date: '1988-08-08' })]);
});

test('the terms and the FAQ state the 운전자격 rules the order API applies', async ({ page }) => {
  for (const path of ['/terms', '/faq']) {
    await page.goto(path);
    const rules = page.getByTestId('licence-rules');
    await expect(rules).toContainText('도로교통공단 운전자격확인시스템');
    await expect(rules).toContainText('면허 취득 후 1년이 지나지 않은 운전자는 등록할 수 없습니다.');
    await expect(rules).toContainText('차량 인도(탁송·교체 인도) 전에 면허를 다시 확인');
  }
});
