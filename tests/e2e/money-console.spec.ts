import { confirmButler, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { loginAs, newStaff, newUser, waitForSite } from './users';

/**
 * The console's 운행 기록 (issue 35): a trip still to come is refused by the server; the start is
 * recorded alone (운행 중); the end first asks the server what overtime it would charge (preview),
 * shows that amount to confirm, and only then records and charges it. The charge answers are
 * stood in for (page.route) after the real refusal: the business clock is shared by every spec.
 */
test.beforeAll(async ({ request }) => waitForSite(request));

test('운행 기록: a future trip is refused; 출발 기록 alone; 종료 기록 shows the previewed overtime and charges only when confirmed', async ({ page, request }) => {
  const user = await newUser(request);
  const booked = await placeButler(request, user.token);
  await confirmButler(request, booked.id);
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#orders');
  await page.getByRole('tab', { name: '의전 요청' }).click();
  await page.getByRole('combobox', { name: '상태' }).selectOption('CONFIRMED');
  const form = page.getByRole('form', { name: `#${booked.id} 운행 기록` });
  await expect(form).toBeVisible();
  const status = form.getByRole('status');

  // The real server: the booked times (prefilled) have not come yet.
  await form.getByRole('button', { name: '종료 기록·초과 요금 정산' }).click();
  await expect(status).toContainText('아직 시작되지 않은 운행은 기록할 수 없습니다');

  const bodies: Record<string, unknown>[] = [];
  await page.route(`**/api/admin/butler-requests/${booked.id}/trip`, async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    bodies.push(body);
    const finished = 'actual_end_at' in body;
    const preview = body.preview === true;
    const payment = finished && !preview ? { id: `butler-${booked.id}-overtime`, status: 'PAID', amount: 200_000, failure_reason: null } : null;
    await route.fulfill({ json: { code: 0, message: 'OK', data: { overtime_amount: finished ? 200_000 : 0, payment, preview, finished } } });
  });

  await form.getByRole('button', { name: '출발 기록' }).click();
  await expect(status).toContainText('출발을 기록했습니다');
  expect(bodies).toHaveLength(1);
  expect(bodies[0]).not.toHaveProperty('actual_end_at');
  await expect(form.getByTestId('trip-started')).toContainText('운행 중');

  const dialogs: string[] = [];
  page.once('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await form.getByRole('button', { name: '종료 기록·초과 요금 정산' }).click();
  await expect(status).toContainText('저장하지 않았습니다');
  expect(dialogs[0]).toContain('초과 이용 요금 200,000원을 고객 카드로 결제합니다');
  expect(bodies.slice(1)).toEqual([expect.objectContaining({ preview: true, actual_end_at: expect.any(String) })]);

  page.once('dialog', (d) => void d.accept());
  await form.getByRole('button', { name: '종료 기록·초과 요금 정산' }).click();
  const recorded = page.getByRole('group', { name: `#${booked.id} 운행 기록` });
  await expect(recorded).toContainText('초과 이용 요금 200,000원');
  expect(bodies.slice(2).map((b) => b.preview ?? false)).toEqual([true, false]);
});

test('staff cancel of a butler booking states the rule’s refund, and a full refund needs the operator’s reason', async ({ page, request }) => {
  const user = await newUser(request);
  const booked = await placeButler(request, user.token);
  await confirmButler(request, booked.id);
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#orders');
  await page.getByRole('tab', { name: '의전 요청' }).click();
  await page.getByRole('combobox', { name: '상태' }).selectOption('CONFIRMED');
  await page.getByRole('button', { name: `#${booked.id} 취소` }).click();
  const dialog = page.getByRole('dialog', { name: `의전 요청 #${booked.id} 취소` });
  // Days ahead, the rule refunds in full; the operator's full refund still asks why.
  await expect(dialog.getByTestId('staff-cancel-rule')).toContainText('100%');
  await dialog.getByLabel(/운영팀 결정으로 전액 환불/).check();
  await dialog.getByRole('button', { name: '예약 취소' }).click();
  await expect(dialog.getByRole('alert')).toContainText('전액 환불 사유를 2자 이상 입력해주세요.');
  await dialog.getByLabel('전액 환불 사유').fill('차량 점검 일정');
  await dialog.getByRole('button', { name: '예약 취소' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(new RegExp(`#${booked.id} 취소했습니다. 환불 .*\\(100%\\)`))).toBeVisible();
});
