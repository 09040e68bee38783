import { and, desc, eq, ne } from 'drizzle-orm';
import { tripDays, quoteButler } from '../../domain/butler';
import { needsApproval } from '../../domain/company';
import { todayInKorea } from '../../domain/dates';
import { ORDER_KINDS, paymentIds } from '../../domain/payments';
import type { CompanyButlerReservation } from '../../domain/schemas/company';
import { customerActor, recordAudit } from '../audit/audit';
import { cancelBooking } from '../billing/butler-billing';
import { declinedOrFine } from '../billing/errors';
import { recordCharge } from '../billing/ledger';
import { companyPayer, requireRole, type CompanyRow } from '../companies/companies';
import { inTransaction, type Db } from '../db/client';
import { companyBookingBlock } from '../invoices/statements';
import { butlerRequests } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { rowTime } from '../jobs/clock';
import { emit, emitOrderReceived } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { butlerCar, checkTrip, insertWaypoints, reserveDays, takenDays } from './butler-trip-checks';
import { legalBasisOf, type ButlerLegalSetting } from './butler-legal-basis';
import { scheduleReminder } from './butler-reminders';
import { toViews, viewOf } from './butler-views';
import { chargeNow, claimKey, inOrderLock, priorOrder, recordOrderCharge, requireVerifiedAccount, verifiedCard, type Orderer } from './checkout';

/**
 * Butler trips booked for a company (issue 52): a booker books for a passenger (who then gets the
 * trip messages), with a cost centre, billed to the company's card or, on 후불, to its monthly
 * invoice (invoice_billed, nothing charged). Above the company's approval threshold a booker's trip
 * waits: not charged, not confirmable, until an admin approves (then it is charged and received)
 * or declines (then it is cancelled, its days freed). Idempotent per the form's request_key.
 */

const REF = ORDER_KINDS.BUTLER.refType;

/** The booking's own key: what makes a retry of the form return the first booking (the card is the company's). */
const companyBookingKey = (companyId: number, requestKey: string) => `company:${companyId}:${requestKey}`;

const payerOf = (company: CompanyRow) => companyPayer(company, '예약', '회사 관리자에게 카드 등록을 요청해주세요.');

/**
 * POST /butlers/cars/{carId}/company-request: the company-booking branch of the butler create
 * route, in one place (the checks an order for a company needs go here), on the checkout's steps
 * (checkout.ts) with the booking's own key and the company's card (none on 후불). The booker must
 * be the company's ADMIN or BOOKER (a stranger's company is 404); no coupon or points of the booker.
 */
export async function createCompanyButlerRequest(ctx: PaymentContext, userId: number, carId: number, input: CompanyButlerReservation, now: Date, legal: ButlerLegalSetting) {
  const { db } = ctx;
  const c = input.company;
  const { company, role } = await requireRole(db, c.company_id, userId, 'book');
  const payer = payerOf(company);
  const key = companyBookingKey(company.id, c.request_key);
  const who: Orderer = { service: 'BUTLER', userId, billingKey: key };
  const prior = await priorOrder(ctx, who);
  if (prior) return { created: false, request: await viewOf(db, prior.orderId, now), payment: prior.payment };
  await requireVerifiedAccount(db, who);
  const start = new Date(input.start_at);
  const end = input.end_at ? new Date(input.end_at) : null;
  const days = tripDays(start, end);
  // An overdue monthly statement stops new bookings until it is paid (invoices/statements.ts).
  const overdue = await companyBookingBlock(db, company.id, now);
  if (overdue) throw conflict(overdue, { company_id: [overdue] });
  const car = await butlerCar(db, carId, todayInKorea(now));
  checkTrip(start, end, input.way_point_requests, 'way_point_requests', now);
  const basis = legalBasisOf(legal, input, car, start, end);
  const taken = await takenDays(db, carId, days, { billingKey: key });
  if (taken.length) throw conflict('선택한 날짜에 이미 예약된 차량입니다.', { start_at: [`이미 예약된 날짜: ${taken.join(', ')}`] });
  // The company's card is verified before anything is spent; the booking shows the card the company registered.
  await verifiedCard(ctx, payer.cardKey);
  const placed = await inOrderLock(ctx, who, async (tx) => {
    const quote = quoteButler(car, start, end, null, 0);
    const waits = needsApproval(role, company.approvalThreshold, quote.final);
    const [row] = await tx
      .insert(butlerRequests)
      .values({
        userId, butlerCarId: carId, startAt: start, endAt: end, startLocation: input.start_location, endLocation: input.end_location,
        passengerCount: input.passenger_count, purpose: input.purpose, memo: input.memo, description: input.description,
        driverPreference: input.driver_preference, flightNumber: input.flight_number, pointUsed: 0,
        billingKey: key, billingProvider: ctx.payments.name, cardIssuer: payer.invoice ? null : company.cardIssuer, cardLast4: payer.invoice ? null : company.cardLast4,
        legalModel: legal.model, legalBasis: basis,
        baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: 0, finalPrice: quote.final,
        companyId: company.id, costCentre: c.cost_centre, guestName: c.guest_name, guestPhone: c.guest_phone, invoiceBilled: payer.invoice,
        approvalStatus: waits ? 'WAITING' : null,
        createdAt: now, modifiedAt: now,
      })
      .returning();
    await reserveDays(tx, carId, row.id, days);
    await insertWaypoints(tx, row.id, input.way_point_requests);
    await scheduleReminder(tx, ctx, row.id, userId, start);
    await claimKey(tx, who, row.id);
    // A waiting trip is charged when approved (decideApproval); an invoiced one never by card.
    if (waits) {
      await emit(tx, `company.approval_requested:${row.id}`, { type: 'company.approval_requested', companyId: company.id, butlerRequestId: row.id }, ctx.clock.now());
      return { orderId: row.id, chargeId: null };
    }
    if (quote.final > 0 && payer.cardKey) {
      const chargeId = await recordOrderCharge(tx, ctx, { id: paymentIds.butler(row.id), userId, purpose: 'BUTLER', refType: REF, refId: row.id, orderName: `LUXE 의전 예약 #${row.id} (${company.name})`, amount: quote.final, billingKey: payer.cardKey });
      return { orderId: row.id, chargeId };
    }
    await emitOrderReceived(tx, { service: 'BUTLER', userId, orderId: row.id }, ctx.clock.now());
    return { orderId: row.id, chargeId: null };
  });
  if (!placed.created) return { created: false, request: await viewOf(db, placed.orderId, now), payment: placed.payment };
  const payment = declinedOrFine(await chargeNow(ctx, placed.chargeId));
  return { created: true, request: await viewOf(db, placed.orderId, now), payment };
}

/** GET /companies/{id}/trips (ADMIN, BOOKER): every trip booked for the company, newest first; a stranger's company is 404. */
export async function listCompanyTrips(db: Db, companyId: number, userId: number, now: Date) {
  await requireRole(db, companyId, userId, 'book');
  const rows = await db
    .select()
    .from(butlerRequests)
    .where(and(eq(butlerRequests.companyId, companyId), ne(butlerRequests.status, 'CANCELLED')))
    .orderBy(desc(butlerRequests.createdAt), desc(butlerRequests.id));
  return toViews(db, rows, now);
}

/**
 * POST /companies/{id}/trips/{tripId}/approval (ADMIN): approve (the company's card is charged now
 * and the trip is received, or it goes on the invoice) or decline (cancelled, its days freed,
 * nothing charged). The booker is told once either way; a second decision is 409.
 */
export async function decideApproval(ctx: PaymentContext, companyId: number, adminId: number, tripId: number, decision: { decision: 'approve' | 'decline'; reason: string | null }) {
  const { db } = ctx;
  const actor = await customerActor(db, adminId);
  const chargeId = await inTransaction(db, async (tx) => {
    const { company } = await requireRole(tx, companyId, adminId, 'manage', { lock: true });
    const [row] = await tx.select().from(butlerRequests).where(and(eq(butlerRequests.id, tripId), eq(butlerRequests.companyId, companyId))).for('update');
    if (!row) throw notFound('요청을 찾을 수 없습니다.');
    if (row.approvalStatus !== 'WAITING' || row.status !== 'PENDING') throw conflict('승인을 기다리는 예약이 아닙니다. 이미 결정되었거나 취소된 예약입니다.');
    const now = ctx.clock.now();
    const approved = decision.decision === 'approve';
    const cardKey = approved && !row.invoiceBilled && row.finalPrice > 0 ? company.billingKey : null;
    if (approved && !row.invoiceBilled && row.finalPrice > 0 && !cardKey) throw unprocessable('회사 결제 카드가 등록되지 않았습니다. 카드를 등록한 뒤 승인해주세요.', { company: ['회사 결제 카드가 없습니다.'] });
    await tx
      .update(butlerRequests)
      .set({ approvalStatus: approved ? 'APPROVED' : 'DECLINED', approvalByUserId: adminId, approvalAt: now, approvalReason: approved ? null : decision.reason, modifiedAt: rowTime() })
      .where(eq(butlerRequests.id, tripId));
    if (!approved) await cancelBooking(tx, row);
    await emit(tx, `company.approval_decided:${tripId}`, { type: 'company.approval_decided', userId: row.userId, butlerRequestId: tripId, approved, ...(decision.reason && !approved ? { reason: decision.reason } : {}) }, now);
    await recordAudit(tx, actor, { action: approved ? 'approve' : 'decline', entity: 'butler_request', entityId: tripId, before: { approval_status: 'WAITING' }, after: { approval_status: approved ? 'APPROVED' : 'DECLINED', reason: decision.reason } });
    if (!cardKey) {
      if (approved) await emitOrderReceived(tx, { service: 'BUTLER', userId: row.userId, orderId: tripId }, now);
      return null;
    }
    const id = paymentIds.butler(tripId);
    await recordCharge(tx, ctx.payments.name, { id, userId: row.userId, purpose: 'BUTLER', refType: REF, refId: tripId, orderName: `LUXE 의전 예약 #${tripId} (${company.name})`, amount: row.finalPrice, billingKey: cardKey }, now);
    return id;
  });
  declinedOrFine(await chargeNow(ctx, chargeId));
  return viewOf(db, tripId, ctx.clock.now());
}
