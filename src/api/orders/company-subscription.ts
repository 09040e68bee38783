import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { subscriptionActive } from '../../domain/subscriptions';
import type { CompanySubscriptionView } from '../../domain/company';
import type { CompanySubscriptionOrder } from '../../domain/schemas/company';
import { todayInKorea } from '../../domain/dates';
import { auditedCall, customerActor, recordAudit } from '../audit/audit';
import { companyPayer, requireRole, type CompanyRow } from '../companies/companies';
import type { Db } from '../db/client';
import { companyMembers, subscriptionRequests, subscriptions, users } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { companyBookingBlock } from '../invoices/statements';
import type { LicenceContext } from '../licence-provider';
import type { PaymentContext } from '../payment-context';
import { createRequest } from './subscription-request-create';
import { cancelRequest } from './subscription-request-cancel';
import { getRequest } from './subscription-requests';
import { contractForDownload, type ContractContext } from './contracts';

/**
 * 법인 장기 구독 (issue 52): a company's admin orders a subscription in the company's name for a
 * named driver, a member with the 운전자 role. The contract names the company (상호,
 * 사업자등록번호, 대표자) as the subscriber and the member as the driver; the first payment and
 * every month are charged to the company's card, or on 후불 billed to its monthly statement. The
 * order is the private one (createRequest: price, hold, licence check, contract), with the
 * company's party; idempotent per the form's request_key. docs/decisions/business-accounts.md.
 */

/** The order's own key: a retried form returns the first order (the card charged is the company's). */
const companySubscriptionKey = (companyId: number, requestKey: string) => `company-sub:${companyId}:${requestKey}`;

const payerOf = (company: CompanyRow) => companyPayer(company, '구독', '회사 결제 카드를 먼저 등록해주세요.');

/** The named driver: a live member of the company with the 운전자 role (422 otherwise; a stranger's id reads the same). */
async function requireDriver(db: Db, companyId: number, driverId: number): Promise<void> {
  const [m] = await db
    .select({ role: companyMembers.role })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, driverId), isNull(companyMembers.removedAt)));
  if (m?.role !== 'DRIVER') throw unprocessable('운전자는 회사에 운전자 역할로 등록된 구성원이어야 합니다.', { 'company.driver_user_id': ['운전자 역할의 구성원을 선택해주세요.'] });
}

/**
 * POST /subscriptions/cars/{carId}/company-request (ADMIN): a subscription ordered for the company.
 * Only an admin orders (a months-long contract with a deposit, paid by the card the admin manages;
 * a BOOKER books trips, not contracts): a booker is 403, a stranger or another company's member 404.
 */
export async function createCompanySubscriptionRequest(ctx: PaymentContext & LicenceContext, adminId: number, carId: number, input: CompanySubscriptionOrder, holdDays: number) {
  const { db } = ctx;
  const c = input.company;
  const { company } = await requireRole(db, c.company_id, adminId, 'manage');
  const payer = payerOf(company);
  const orderKey = companySubscriptionKey(company.id, c.request_key);
  const actor = await customerActor(db, adminId);
  return createRequest(ctx, adminId, carId, { ...input, billing_key: orderKey }, holdDays, {
    companyId: company.id, companyName: company.name, driverId: c.driver_user_id, orderKey, cardKey: payer.cardKey, invoice: payer.invoice,
    check: async () => {
      // An overdue monthly statement stops new orders until it is paid (invoices/statements.ts).
      const overdue = await companyBookingBlock(db, company.id, ctx.clock.now());
      if (overdue) throw conflict(overdue, { company_id: [overdue] });
      // Run for a new order only: a retry returns the first order even if the driver has left since.
      await requireDriver(db, company.id, c.driver_user_id);
    },
    recorded: (tx, requestId) =>
      recordAudit(tx, actor, {
        action: 'create', entity: 'company_subscription', entityId: requestId, before: null,
        after: { company_id: company.id, driver_user_id: c.driver_user_id, billing: payer.invoice ? 'INVOICE' : 'CARD', month: input.month },
      }),
  });
}

/**
 * GET /companies/{id}/subscriptions/{requestId}/contract (ADMIN): the contract the company is party
 * to; a request of another company (or a private one) is 404 as a stranger's company is.
 */
export async function companyContract(ctx: ContractContext, companyId: number, adminId: number, requestId: number) {
  await requireRole(ctx.db, companyId, adminId, 'manage');
  const [r] = await ctx.db.select({ companyId: subscriptionRequests.companyId }).from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
  if (r?.companyId !== companyId) throw notFound('구독 신청을 찾을 수 없습니다.');
  return contractForDownload(ctx, requestId, null);
}

/**
 * DELETE /companies/{id}/subscriptions/{requestId} (ADMIN): the company's admin cancels its PENDING
 * order (before staff confirm it), as staff can: the company card's first charge, if any, refunded
 * in full (one refund key per charge), the order cancelled, staff told who cancelled, audited with
 * the admin's name. A retry (or a second click) on the cancelled order answers it again, nothing
 * refunded twice; a confirmed order is 409 (the subscription is ended with staff). A booker or a
 * driver is 403, a stranger and another company's order 404.
 */
export async function cancelCompanySubscriptionRequest(ctx: PaymentContext, companyId: number, adminId: number, requestId: number) {
  await requireRole(ctx.db, companyId, adminId, 'manage');
  const [r] = await ctx.db.select({ companyId: subscriptionRequests.companyId, userId: subscriptionRequests.userId, status: subscriptionRequests.status }).from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
  if (!r || r.companyId !== companyId) throw notFound('구독 신청을 찾을 수 없습니다.');
  if (r.status !== 'CANCELLED') {
    const actor = await customerActor(ctx.db, adminId);
    try {
      await auditedCall(ctx.db, actor, { action: 'cancel', entity: 'subscription_request', entityId: requestId }, (audit) =>
        cancelRequest(ctx, r.userId, requestId, { actor: `company:${companyId}:${actor.name}`, audit, by: { kind: 'company', name: actor.name } }),
      );
    } catch (e) {
      // The other click cancelled it meanwhile (its refunds are under the same keys): the same answer.
      const [now] = await ctx.db.select({ status: subscriptionRequests.status }).from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
      if (now?.status !== 'CANCELLED') throw e;
    }
  }
  return getRequest(ctx.db, r.userId, requestId);
}

/**
 * GET /companies/{id}/subscriptions (ADMIN): the company's subscription orders, newest first, each
 * with its driver and, once confirmed, its subscription's dates and billing. A booker or a driver is
 * 403 (a driver sees their own in /my), a stranger 404.
 */
export async function listCompanySubscriptions(db: Db, companyId: number, adminId: number, now: Date): Promise<CompanySubscriptionView[]> {
  await requireRole(db, companyId, adminId, 'manage');
  const rows = await db
    .select({ request: subscriptionRequests, sub: subscriptions })
    .from(subscriptionRequests)
    .leftJoin(subscriptions, eq(subscriptions.requestId, subscriptionRequests.id))
    .where(eq(subscriptionRequests.companyId, companyId))
    .orderBy(desc(subscriptionRequests.createdAt), desc(subscriptionRequests.id));
  const ids = [...new Set(rows.map((r) => r.request.userId))];
  const names = new Map(ids.length ? (await db.select({ id: users.id, name: users.name, username: users.username }).from(users).where(inArray(users.id, ids))).map((u) => [u.id, u.name ?? u.username]) : []);
  const today = todayInKorea(now);
  const out: CompanySubscriptionView[] = [];
  for (const { request, sub } of rows) {
    out.push({
      request: await getRequest(db, request.userId, request.id),
      driver: { user_id: request.userId, name: names.get(request.userId) ?? '' },
      subscription: sub
        ? { id: sub.id, start_date: sub.startDate, end_date: sub.endDate, is_active: subscriptionActive(sub, today), paid_months: sub.paidMonths, billing_status: sub.billingStatus }
        : null,
    });
  }
  return out;
}
