import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { TERMS_SEED } from '../../src/api/seed/content-data';
import { cars, jobs, notificationMessages, policyDocuments, subscriptionContracts, subscriptionRequests } from '../../src/api/db/schema';
import { contractInput, contractPdf } from '../../src/api/orders/contracts';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { termEnd } from '../../src/domain/subscriptions';
import { defaultOptionPrices } from '../../src/domain/subscription-price';
import { anotherPlate, apiTools, billingKey, createTestContext, customer, koreaDay, type TestContext } from './helpers';
import { pdfText } from '../pdf-text';

let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const START = koreaDay(40);

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { brand: '포르쉐', brandSlug: 'porsche-contract', model: '911 카레라', licensePlate: '12가 3456', color: '크레용', fees: { subscription_fee_1: 5_200_000, subscription_fee_12: 4_690_000 } }));
  await ctx.database.db.insert(policyDocuments).values({ kind: 'terms', ...TERMS_SEED, effectiveDate: '2026-01-01' });
});
afterAll(() => ctx.close());

const { runJobs } = apiTools(() => ctx);
/** The raw answer of a download (status, type, bytes). */
async function download(path: string, token?: string) {
  const res = await ctx.app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), sha: res.headers.get('x-content-sha256'), bytes: new Uint8Array(await res.arrayBuffer()) };
}
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('the contract (계약서)', () => {
  it('ordering issues one contract PDF, with the car, the amounts and the dates in Korean, stored with its SHA-256', async () => {
    const { token, holdings } = await customer(ctx, 20_000, [{ name: '웰컴 쿠폰', discountType: 'FIXED', discount: 500_000 }]);
    const plate = await anotherPlate(ctx, carId);
    const key = billingKey(ctx);
    const body = { month: 12, start_date: START, coupon_id: holdings[0], point_amount: 10_000, billing_key: key };
    const res = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token, json: body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.subscription_request.id;
    // A retried order (same card) is the same order: still one contract job, one contract.
    const again = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token, json: body });
    expect(again.status).toBe(200);
    expect(again.body.data.subscription_request.id).toBe(id);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `contract:subreq:${id}`))).toHaveLength(1);
    await runJobs();
    const rows = await ctx.database.db.select().from(subscriptionContracts).where(eq(subscriptionContracts.requestId, id));
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.sha256).toBe(sha256(new Uint8Array(row.pdf)));

    const got = await download(`/subscriptions/requests/${id}/contract`, token);
    expect(got).toMatchObject({ status: 200, type: 'application/pdf', sha: row.sha256 });
    expect(got.disposition).toContain(`LUXE-S-${String(id).padStart(6, '0')}.pdf`);
    expect(new TextDecoder().decode(got.bytes.slice(0, 5))).toBe('%PDF-');
    expect(sha256(got.bytes)).toBe(row.sha256);

    const text = await pdfText(got.bytes);
    expect(text).toContain('자동차 구독 계약서');
    // The car: brand, model, plate, colour.
    expect(text).toContain('포르쉐 911 카레라');
    expect(text).toContain('12가 3456');
    expect(text).toContain('크레용');
    // The amounts: monthly fee, coupon, points, first payment, the later months.
    expect(text).toContain('4,690,000원');
    expect(text).toContain('-500,000원 (웰컴 쿠폰)');
    expect(text).toContain('-10,000원');
    expect(text).toContain('4,180,000원');
    expect(text).toContain('매월 4,690,000원 × 11회');
    // The dates: the requested start and end, the term.
    expect(text).toContain(START.replaceAll('-', '.'));
    expect(text).toContain(termEnd(START, 12).replaceAll('-', '.'));
    expect(text).toContain('12개월');
    // Mileage, insurance, delivery, the terms' cancellation rules, the consents and their time.
    expect(text).toContain('월 2,500km');
    expect(text).toContain('자기부담금');
    expect(text).toContain('탁송');
    expect(text).toContain('제5조 (신청 취소와 해지)');
    expect(text).toContain('이미 결제한 달은 환불되지 않고');
    expect(text).toContain('정기결제 동의');
    expect(text).toContain('주식회사 럭스모빌리티');
    // Issue 49: the seller's 대표자 and 사업자등록번호, a 계약 체결 block, insurance limits, a formatted phone.
    for (const s of ['대표자', ctx.config.company.ceo, '사업자등록번호', ctx.config.company.businessNumber, '통신판매업 신고번호', '11. 계약 체결 (전자 서명)', '전자적으로 동의', '대인배상', '무한', '대물배상', '자기신체사고', '자기차량손해', '02-6952-0808']) expect(text).toContain(s);
    expect(text).not.toContain('인수 방법 탁송');
    expect(text).toContain('SHA-256 값은 마이페이지의 구독 신청 상세 화면');

    // The hash the footer points to: answered as JSON for the request page, equal to the file's.
    const hash = await ctx.call('GET', `/subscriptions/requests/${id}/contract/sha256`, { token });
    expect(hash.status).toBe(200);
    expect(hash.body.data.contract).toEqual({ file_name: `LUXE-S-${String(id).padStart(6, '0')}.pdf`, sha256: sha256(got.bytes), byte_size: got.bytes.length });
    const stranger = await customer(ctx);
    expect((await ctx.call('GET', `/subscriptions/requests/${id}/contract/sha256`, { token: stranger.token })).status).toBe(404);
    expect((await ctx.call('GET', `/subscriptions/requests/${id}/contract/sha256`)).status).toBe(401);
    expect((await ctx.call('GET', `/subscriptions/requests/abc/contract/sha256`, { token })).status).toBe(400);

    // The order-received message links to the request, where the contract is, and says so.
    const [received] = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `subscription.requested:${id}`));
    expect(received.text).toContain('계약서');
    expect(received.text).toContain(`/subscribe/request/${id}`);
  });

  it('the same input gives the same bytes and hash; a different order gives another', async () => {
    const { token } = await customer(ctx);
    const res = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, start_date: koreaDay(50), billing_key: billingKey(ctx) } });
    const id = res.body.data.subscription_request.id;
    const input = await contractInput(ctx.database.db, ctx.config.company, id);
    const a = await contractPdf(input);
    const b = await contractPdf(await contractInput(ctx.database.db, ctx.config.company, id));
    expect(b.sha256).toBe(a.sha256);
    expect(Buffer.from(b.pdf).equals(Buffer.from(a.pdf))).toBe(true);
    // The download (issued on demand when the job has not run) is those very bytes.
    const got = await download(`/subscriptions/requests/${id}/contract`, token);
    expect(got.status).toBe(200);
    expect(sha256(got.bytes)).toBe(a.sha256);
    // Another order's contract differs.
    const other = await contractPdf({ ...input, requestId: id + 1000 });
    expect(other.sha256).not.toBe(a.sha256);
  });

  it('is the customer’s own: another customer 404, anonymous 401, staff any; a declined order has none', async () => {
    const owner = await customer(ctx);
    const res = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token: owner.token, json: { month: 12, start_date: koreaDay(60), billing_key: billingKey(ctx) } });
    const id = res.body.data.subscription_request.id;
    const stranger = await customer(ctx);
    expect((await download(`/subscriptions/requests/${id}/contract`, stranger.token)).status).toBe(404);
    expect((await download(`/subscriptions/requests/${id}/contract`)).status).toBe(401);
    expect((await download(`/subscriptions/requests/999999/contract`, owner.token)).status).toBe(404);
    expect((await download(`/admin/subscription-requests/${id}/contract`, stranger.token)).status).toBe(403);
    const staff = await download(`/admin/subscription-requests/${id}/contract`, ADMIN);
    expect(staff).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(sha256(staff.bytes)).toBe((await download(`/subscriptions/requests/${id}/contract`, owner.token)).sha);
    // A declined first charge made no order: no contract.
    const declined = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token: owner.token, json: { month: 12, start_date: koreaDay(60), billing_key: issueSandboxBillingKey(ctx.config, 'decline-limit') } });
    expect(declined.status).toBe(422);
    const [declinedRow] = await ctx.database.db.select({ id: subscriptionRequests.id }).from(subscriptionRequests).where(eq(subscriptionRequests.status, 'CANCELLED')).orderBy(desc(subscriptionRequests.id)).limit(1);
    expect((await download(`/subscriptions/requests/${declinedRow.id}/contract`, owner.token)).status).toBe(404);
    expect(await ctx.database.db.select().from(subscriptionContracts).where(eq(subscriptionContracts.requestId, declinedRow.id))).toHaveLength(0);
  });

  it('is unchangeable: the database refuses to update or delete a contract', async () => {
    const [row] = await ctx.database.db.select({ id: subscriptionContracts.id }).from(subscriptionContracts).limit(1);
    await expect(ctx.database.db.update(subscriptionContracts).set({ sha256: '0'.repeat(64) }).where(eq(subscriptionContracts.id, row.id))).rejects.toThrow();
    await expect(ctx.database.db.delete(subscriptionContracts).where(eq(subscriptionContracts.id, row.id))).rejects.toThrow();
    expect(await ctx.database.db.select().from(subscriptionContracts).where(eq(subscriptionContracts.id, row.id))).toHaveLength(1);
  });

  it('states one total: the first payment by its parts (보증금, 선납금 named) and the later months as billing charges them (issue 49)', async () => {
    // 12-month fee 1,200,000원; 선납금 6,000,000원 (500,000원 off each month), 보증금 500,000원.
    const { car } = await insertTestCar(ctx.database.db, { brand: '포르쉐', brandSlug: 'porsche-contract-prepay', model: '타이칸', fees: { subscription_fee_12: 1_200_000 } });
    await ctx.database.db.update(cars).set({ optionPrices: { ...defaultOptionPrices({ subscription_fee_minimum: 1_200_000 }), deposit: 500_000, prepayment_max: 6_000_000 } }).where(eq(cars.id, car.id));
    const { token } = await customer(ctx);
    const options = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', prepayment: 6_000_000 };
    const res = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, car.id)}/request`, { token, json: { month: 12, start_date: koreaDay(45), billing_key: billingKey(ctx), options } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.subscription_request.id;
    const got = await download(`/subscriptions/requests/${id}/contract`, token);
    expect(got.status).toBe(200);
    const text = (await pdfText(got.bytes)).replace(/\s+/g, ' ');
    // The first payment, each part named, as /my/payments names it (firstPaymentLines).
    expect(text).toContain('첫 결제 금액 (신청 시) 7,200,000원');
    expect(text).toContain('첫 달 구독료 (선납금 차감 후) 700,000원 + 보증금 (반납 후 환급) 500,000원 + 선납금 6,000,000원 = 7,200,000원');
    // Months 2…12: the fee less the 선납금 credit, what billing charges each month.
    expect(text).toContain('선납금 차감 매월 -500,000원 (선납금 6,000,000원 / 12개월');
    expect(text).toContain('매월 700,000원 (월 구독료 1,200,000원 - 선납금 차감 500,000원) × 11회');
    expect(text).toContain('보증금 500,000원 (첫 결제에 포함, 반납 정산 후 남은 금액 환불)');
    // One total: the first payment and the 11 months (the refundable 보증금 in it, named), and no second one.
    expect(text).toContain('계약 기간 총 결제 금액 14,900,000원 (첫 결제 7,200,000원 + 2개월 차부터 7,700,000원, 환불되는 보증금 500,000원 포함)');
    expect(text).not.toContain('보증금 제외');
    expect(text.match(/총/g)).toHaveLength(1);
    // The same amounts the first charge took and month 2 will be charged.
    const [r] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
    expect([r.finalFee, r.fee]).toEqual([7_200_000, 700_000]);
  });
});
