import { randomInt } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { koreaDayStart, koreaInstant, todayInKorea } from '../../domain/dates';
import { monthOfDay, previousMonth } from '../../domain/invoices';
import type { Db } from '../db/client';
import {
  butlerCars, butlerRequests, cars, companies, companyInvoices, companyMembers, companySubscriptionCharges, companySubscriptionMonths, payments, subscriptionRequests, subscriptions, users,
} from '../db/schema';
import { notFound } from '../errors';
import { issueMonthStatements, type StatementSettings } from './statements';
import { recordCardTaxInvoice } from './card-tax-invoices';

/**
 * For end-to-end runs only (TEST_FIXTURES=on): a 후불 company the user runs, two invoice-billed
 * trips of last month with cost centres (one with a charge after it), and that month's statement.
 */
/** The first butler car, and a company the user runs (후불 or not). */
async function testCompany(db: Db, userId: number, invoiceBilling: boolean, now: Date) {
  const [car] = await db.select({ id: butlerCars.id }).from(butlerCars).orderBy(asc(butlerCars.id)).limit(1);
  if (!car) throw notFound('의전 차량이 없습니다.');
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('사용자를 찾을 수 없습니다.');
  const [company] = await db
    .insert(companies)
    .values({
      name: `주식회사 테스트${randomInt(1000, 9999)}`, businessNumber: String(randomInt(1_000_000_000, 9_999_999_000)), ceo: '김대표', businessType: '서비스', businessItem: '경영 컨설팅',
      address: '서울특별시 중구 세종대로 110', invoiceEmail: `tax-${randomInt(1e6)}@example.com`, businessStatus: 'ACTIVE', statusCheckedAt: now, openedOn: '2015-03-02', authority: 'CEO', invoiceBilling, createdByUserId: userId,
    })
    .returning();
  await db.insert(companyMembers).values({ companyId: company.id, userId, role: 'ADMIN' });
  return { car, company };
}

export async function insertTestStatement(db: Db, settings: StatementSettings, userId: number, now: Date) {
  const month = previousMonth(monthOfDay(todayInKorea(now)));
  const { car, company } = await testCompany(db, userId, true, now);
  const at = (day: string, hour: number) => new Date(koreaDayStart(`${month}-${day}`).getTime() + hour * 3600_000);
  const trip = { userId, butlerCarId: car.id, startLocation: '서울 중구 세종대로 110', endLocation: '인천 중구 공항로 272', billingProvider: 'sandbox' as const, status: 'CONFIRMED' as const, companyId: company.id, invoiceBilled: true };
  await db.insert(butlerRequests).values([
    { ...trip, startAt: at('05', 9), endAt: at('05', 17), billingKey: `test-company-${company.id}-1`, baseFee: 800_000, finalPrice: 800_000, costCentre: '영업1팀', guestName: '이손님',
      actualStartAt: at('05', 9), actualEndAt: at('05', 19),
      tripCharge: { booked_hours: 8, used_minutes: 600, used_hours: 10, overtime_hours: 2, overtime_rate: 165_000, overtime_coupon: 0, overtime_amount: 330_000, airport: false, waiting_minutes: 0, free_minutes: 15, step_minutes: 30, waiting_steps: 0, step_price: 0, waiting_amount: 0, prepaid: 800_000, amount: 330_000 } },
    { ...trip, startAt: at('18', 9), endAt: at('18', 17), billingKey: `test-company-${company.id}-2`, baseFee: 770_000, finalPrice: 770_000, costCentre: '경영지원' },
  ]);
  await issueMonthStatements(db, settings, month, now, company.id);
  const [statement] = await db.select().from(companyInvoices).where(eq(companyInvoices.companyId, company.id));
  return { company_id: company.id, company_name: company.name, statement_id: statement.id, month };
}

/**
 * For end-to-end runs only (TEST_FIXTURES=on): a 후불 company the user runs whose last month's
 * statement is owed back to it, made by the monthly job's own code. Two months ago its subscription's
 * first payment (1,300,000원, the deposit in it) was billed and that statement paid; last month one
 * trip of 300,000원 and the deposit's return (−500,000원) at the car's return: −200,000원, 환급 예정.
 * `issueDocuments` runs the tax invoice job between the months (the credit amends the earlier original).
 */
export async function insertTestCreditStatement(db: Db, settings: StatementSettings, userId: number, now: Date, issueDocuments: () => Promise<unknown>) {
  const month = previousMonth(monthOfDay(todayInKorea(now)));
  const earlier = previousMonth(month);
  const { car, company } = await testCompany(db, userId, true, now);
  const [subscriptionCar] = await db.select({ id: cars.id }).from(cars).orderBy(asc(cars.id)).limit(1);
  if (!subscriptionCar) throw notFound('차량이 없습니다.');
  // The order is over (cancelled for the fixture's sake): it holds no car for the other tests.
  const [order] = await db
    .insert(subscriptionRequests)
    .values({ userId, carId: subscriptionCar.id, month: 12, billingKey: `test-company-credit-${company.id}`, billingProvider: 'sandbox', fee: 800_000, finalFee: 800_000, status: 'CANCELLED', companyId: company.id })
    .returning({ id: subscriptionRequests.id });
  const [sub] = await db.insert(subscriptions).values({ requestId: order.id, userId, startDate: `${earlier}-10`, endDate: `${month}-20` }).returning({ id: subscriptions.id });
  await db.insert(companySubscriptionMonths).values({ subscriptionId: sub.id, companyId: company.id, month: 1, amount: 1_300_000, serviceDate: `${earlier}-10` });
  const [first] = await issueMonthStatements(db, settings, earlier, now, company.id);
  await issueDocuments();
  await db.update(companyInvoices).set({ status: 'PAID', paidAt: now }).where(eq(companyInvoices.id, first));
  // A trip from 09:00 to 17:00 on the 5th, Korean time.
  const start = koreaInstant(`${month}-05`, '09:00')!.getTime();
  await db.insert(butlerRequests).values({
    userId, butlerCarId: car.id, startLocation: '서울 중구 세종대로 110', endLocation: '인천 중구 공항로 272', billingProvider: 'sandbox', status: 'CONFIRMED', companyId: company.id, invoiceBilled: true,
    startAt: new Date(start), endAt: new Date(start + 8 * 3600_000), billingKey: `test-company-credit-${company.id}-1`, baseFee: 300_000, finalPrice: 300_000, costCentre: '총무',
  });
  await db.insert(companySubscriptionCharges).values({
    subscriptionId: sub.id, companyId: company.id, sourceKey: `sub:${sub.id}:settle:refund`, kind: 'SETTLEMENT_REFUND', label: `구독 #${sub.id} 반납 정산 보증금 반환`, amount: -500_000, serviceDate: `${month}-20`,
  });
  const [statementId] = await issueMonthStatements(db, settings, month, now, company.id);
  return { company_id: company.id, company_name: company.name, statement_id: statementId, month };
}

/**
 * For end-to-end runs only (TEST_FIXTURES=on): a company the user runs, one company trip paid by the
 * company card yesterday, and that payment's 전자세금계산서 as CARD_TAX_DOCUMENT=tax_invoice records
 * it (the e2e server keeps the default card_slip for every other test).
 */
export async function insertTestCardTaxInvoice(db: Db, userId: number, now: Date) {
  const { car, company } = await testCompany(db, userId, false, now);
  const startAt = new Date(now.getTime() + 3 * 86_400_000);
  const [trip] = await db
    .insert(butlerRequests)
    .values({
      userId, butlerCarId: car.id, startLocation: '서울 중구 세종대로 110', endLocation: '인천 중구 공항로 272', billingProvider: 'sandbox', status: 'CONFIRMED', companyId: company.id,
      startAt, endAt: new Date(startAt.getTime() + 8 * 3_600_000), billingKey: `test-company-card-${company.id}`, baseFee: 880_000, finalPrice: 880_000, costCentre: '영업1팀',
    })
    .returning();
  const paidAt = new Date(now.getTime() - 86_400_000);
  const [payment] = await db
    .insert(payments)
    .values({
      id: `test-card-tax-${company.id}-${trip.id}`, userId, purpose: 'BUTLER', refType: 'butler_request', refId: trip.id, orderName: `의전 #${trip.id} 이용료`, amount: 880_000,
      status: 'PAID', provider: 'sandbox', billingKey: `test-company-card-${company.id}`, requestedAt: paidAt, paidAt,
    })
    .returning();
  await recordCardTaxInvoice(db, 'tax_invoice', payment, now);
  return { company_id: company.id, company_name: company.name, payment_id: payment.id, butler_request_id: trip.id };
}
