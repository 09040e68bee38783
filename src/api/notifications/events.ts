import type { TripPriceChange } from '../../domain/trip-change';
import type { UnassignedAlert } from '../../domain/dispatch';
import type { PickupChangeCause, TripChange } from '../../domain/driver-notices';
import type { Db } from '../db/client';
import { enqueue, type JobSpec } from '../jobs/queue';

/**
 * What happened, as the notification outbox records it. Each event is written in the
 * transaction of the change that causes it (the outbox pattern) as a `notify` job, and the notify
 * handler (src/api/notifications/) renders and sends it on every channel, once per channel.
 * Ids are the records the message links to; the handler reads current data when it renders.
 */
export type NotificationEvent =
  // Customers
  | { type: 'subscription.requested'; userId: number; requestId: number }
  | { type: 'subscription.confirmed'; userId: number; subscriptionId: number }
  | { type: 'subscription.cancelled'; userId: number; requestId: number; reason?: 'car_taken' }
  /** The customer replaced the subscription's card (my subscriptions): from the next charge on, the new one is charged. */
  | { type: 'subscription.card_changed'; userId: number; subscriptionId: number }
  | { type: 'subscription.charge_upcoming'; userId: number; subscriptionId: number; month: number; chargeDate: string; amount: number }
  /** 초과 주행 정산 at the return: the arithmetic the message shows (paymentId null: nothing over the allowance, nothing charged). */
  | { type: 'subscription.mileage_settled'; userId: number; subscriptionId: number; paymentId: string | null; drivenKm: number; allowanceKm: number; monthlyKm: number; months: number; overageKm: number; perKm: number; amount: number }
  /** Staff scheduled (or moved) the car's 탁송 or 반납: the day, window and driver. */
  | { type: 'subscription.handover_scheduled'; userId: number; subscriptionId: number; handoverId: number }
  /** The handover was recorded (odometer, fuel, notes): the customer is asked to acknowledge it on my subscriptions. */
  | { type: 'subscription.handover_recorded'; userId: number; subscriptionId: number; handoverId: number }
  /** 중도 해지 paid (or nothing was owed): the arithmetic the message shows. */
  | { type: 'subscription.early_exit'; userId: number; subscriptionId: number; exitDate: string; remainingMonths: number; monthlyFee: number; percent: number; fee: number; feeParts?: { months: number; monthly_fee: number }[] }
  /** 구독 연장 confirmed: the new end date and the added months' fee, from which billing month. */
  | { type: 'subscription.extended'; userId: number; subscriptionId: number; extensionId: number; months: number; newEndDate: string; monthlyFee: number; firstMonth: number; fromDate: string }
  /** 차량 교체 confirmed (its difference paid, refunded or nothing): the day, both cars, the arithmetic and the new fee from which month. */
  | { type: 'subscription.swapped'; userId: number; subscriptionId: number; swapId: number; swapDate: string; fromCar: string; toCar: string; arithmetic: string; adjustment: number; newFee: number; firstNewMonth: number; newFeeFrom: string | null }
  /** A confirmed 차량 교체 called off before its day: the car kept, and what its money did (moneyLine, Korean). */
  | { type: 'subscription.swap_cancelled'; userId: number; subscriptionId: number; swapId: number; swapDate: string; fromCar: string; toCar: string; moneyLine: string }
  /** 반납 정산 done: its lines and the arithmetic (deposit first, then the card or a refund). */
  | { type: 'subscription.settled'; userId: number; subscriptionId: number; lines: { label: string; amount: number; detail: string }[]; total: number; deposit: number; fromDeposit: number; toCharge: number; toRefund: number; summary: string }
  /** 청약철회 done: the refund to the card and the points back (the quote's parts). */
  /** 운전자격 확인 before a delivery found a licence that lapsed: the handover stopped. */
  | { type: 'subscription.licence_refused'; userId: number; subscriptionId: number; handoverId: number; reason: string }
  | { type: 'subscription.withdrawn'; userId: number; subscriptionId: number; day: string; refund: number; pointsRestored: number; couponRestored: boolean; lines: { label: string; amount: string }[] }
  | { type: 'butler.requested'; userId: number; butlerRequestId: number }
  | { type: 'butler.confirmed'; userId: number; butlerRequestId: number }
  | { type: 'butler.reminder'; userId: number; butlerRequestId: number }
  /** refundPercent of the paid fee; byOperator: staff cancelled; operatorDecision: why staff refunded in full beyond the rule (or refused eligibility). */
  | { type: 'butler.cancelled'; userId: number; butlerRequestId: number; refundPercent?: number; byOperator?: boolean; operatorDecision?: string }
  | { type: 'payment.succeeded'; userId: number; paymentId: string }
  /** A company's monthly statement (후불) was made: each of its admins hears the amount, the due day and where to read it. */
  | { type: 'company.statement_issued'; userId: number; invoiceId: number }
  /** A statement whose credits exceed its charges: what is owed back to the company. */
  | { type: 'company.statement_credit'; userId: number; invoiceId: number }
  /** A 전자세금계산서 (or 수정세금계산서) was issued or sent again: to the company's 세금계산서 수신 이메일. */
  | { type: 'company.tax_invoice_sent'; taxInvoiceId: number }
  | { type: 'payment.failed'; userId: number; paymentId: string; reason: string; retryDate: string | null }
  | { type: 'payment.refunded'; userId: number; paymentId: string; amount: number }
  /** The driver tapped 출발 on /driver: the customer hears who is coming in which car. */
  | { type: 'butler.driver_departed'; userId: number; butlerRequestId: number }
  /** Staff changed the trip's pickup time or addresses (a late flight, the customer's call): what changed, before → after. */
  | { type: 'butler.trip_changed'; userId: number; butlerRequestId: number; cause: PickupChangeCause; changes: TripChange[]; price?: TripPriceChange | null }
  /** 기사님과 메시지: the driver or staff wrote in the trip's thread; one per batch (messageId: the batch's first unread message). */
  | { type: 'butler.trip_message'; userId: number; butlerRequestId: number; messageId: number }
  /** A company trip's guest: the driver, the booker or staff answered in the thread; by 알림톡 to the guest's phone with their link, at most once per GUEST_NOTICE_GAP_MS (domain/trip-thread) a trip. */
  | { type: 'butler.guest_trip_message'; butlerRequestId: number; messageId: number }
  // Company accounts (법인)
  /** An admin invited someone to the company; the code is in the link (only its hash is stored with the invite). */
  | { type: 'company.invited'; inviteId: number; code: string }
  /** A booker's trip above the company's threshold waits: the company's admins are asked to approve or decline. */
  | { type: 'company.approval_requested'; companyId: number; butlerRequestId: number }
  /** An admin approved or declined the booker's trip: the booker hears which. */
  | { type: 'company.approval_decided'; userId: number; butlerRequestId: number; approved: boolean; reason?: string }
  /** Staff confirmed the 재직·위임 proof of a company whose creator is not the 대표자: each of its admins hears it may book now. */
  | { type: 'company.authority_confirmed'; userId: number; companyId: number }
  /** Staff refused the proof (the company still waits): each of its admins hears why and that they may upload again. */
  | { type: 'company.authority_refused'; userId: number; companyId: number; reason: string }
  // Drivers
  /** 고객과 메시지: the customer or staff wrote in the trip's thread; one per batch, by 알림톡 to the roster phone. */
  | { type: 'driver.trip_message'; butlerRequestId: number; driverId: number; messageId: number }
  /** Staff invited a roster driver to sign up on /driver; the code is in the link (only its hash is stored with the invite). */
  | { type: 'driver.invited'; inviteId: number; code: string }
  /** 위치정보 제공사실 batch notice (시행령 제24조): the reads of the driver's position told in one message; `batchAt` marks the rows it covers. */
  | { type: 'driver.location_reads'; userId: number; driverId: number; batchAt: string }
  /** A trip assigned to the driver was cancelled (by the customer or staff): the driver is told once. */
  | { type: 'driver.trip_cancelled'; butlerRequestId: number; driverId: number }
  /** Staff assigned the driver to a trip (a new assignment or a reassignment to them). */
  | { type: 'driver.trip_assigned'; butlerRequestId: number; driverId: number }
  /** The trip was given to another driver or its driver removed: the old driver is told. */
  | { type: 'driver.trip_unassigned'; butlerRequestId: number; driverId: number }
  /** The trip's time, addresses, waypoints or flight changed: the notice row holds before → after. */
  | { type: 'driver.trip_changed'; butlerRequestId: number; driverId: number; noticeId: number }
  // Staff
  | { type: 'staff.subscription_requested'; requestId: number }
  | { type: 'staff.butler_requested'; butlerRequestId: number }
  /** A customer rated a trip LOW_RATING_MAX stars or fewer. */
  | { type: 'staff.trip_rated_low'; butlerRequestId: number }
  /** A trip of tomorrow (eve) or today (day) with no driver yet; dropped at send time once one is assigned. */
  | { type: 'staff.butler_unassigned'; butlerRequestId: number; alert: UnassignedAlert }
  | { type: 'staff.chat_handoff'; sessionKey: string; summary: string; contact?: string; booking?: string }
  /** paymentId: the month's last failed attempt (its month and amount are what is owed). */
  | { type: 'staff.subscription_overdue'; subscriptionId: number; paymentId?: string }
  /** A cancellation, by the customer or staff, with what went back to the card (won) and the points returned. */
  | { type: 'staff.butler_cancelled'; butlerRequestId: number; by: CancelledBy; refundedAmount: number; refundPercent: number; refundedPoints: number }
  | { type: 'staff.subscription_cancelled'; requestId: number; by: CancelledBy; refundedAmount: number; refundedPoints: number }
  /** A customer withdrew (청약철회): before the handover the car's delivery is called off; after it staff collect the car. */
  | { type: 'staff.subscription_withdrawn'; subscriptionId: number; day: string; kind: 'BEFORE_HANDOVER' | 'AFTER_HANDOVER'; refund: number }
  /** A customer changed the delivery (address, window or start) on my page: staff check the board. */
  | { type: 'staff.licence_refused'; subscriptionId: number; handoverId: number; reason: string }
  | { type: 'staff.delivery_changed'; subscriptionId: number | null; requestId: number; changes: string[] }
  | { type: 'staff.subscription_extended'; subscriptionId: number; extensionId: number; months: number; newEndDate: string; monthlyFee: number; firstMonth: number }
  /** A customer's 차량 교체 is confirmed: staff schedule the pair (the old car's return and the new car's delivery on swapDate). */
  | { type: 'staff.subscription_swapped'; subscriptionId: number; swapId: number; swapDate: string; fromCar: string; toCar: string; newFee: number }
  /** The customer called a confirmed swap off: the old car stays; its pair, if booked, is called off by a job. */
  | { type: 'staff.subscription_swap_cancelled'; subscriptionId: number; swapId: number; swapDate: string; fromCar: string; toCar: string }
  /** The storefront's pages lag the catalogue by more than a minute (src/domain/publish-lag.ts); `error`: the last failed build's first line. */
  | { type: 'staff.publish_lagging'; catalogueVersion: number; publishedVersion: number | null; since: string; error?: string }
  // Marketing: only to customers who consented (수신 동의), by email, with an unsubscribe link
  | { type: 'marketing.announcement'; userId: number; campaign: string; title: string; body: string; path?: string }
  /** Every 2 years from the marketing consent (제50조⑧): that it is still given (consentAt: the consent's instant, ISO). */
  | { type: 'marketing.consent_reminder'; userId: number; consentAt: string; n: number };

export type NotificationEventType = NotificationEvent['type'];

/** Who cancelled an order: the customer, or staff (their name as the audit log records it). */
/** Who cancelled: the customer, staff, or (a company order, issue 52) the company's admin. */
export type CancelledBy = { kind: 'customer' } | { kind: 'staff'; name: string } | { kind: 'company'; name: string };

/** How long before a butler trip's start its reminder goes (the day before). */
export const BUTLER_REMINDER_BEFORE_MS = 24 * 3600_000;

/** The key of a butler trip's reminder (the day before); an edit that moves the trip moves its job. */
export const butlerReminderKey = (butlerRequestId: number) => `butler.reminder:${butlerRequestId}`;

/** The key of a trip's unassigned-driver alert to staff (the evening before, the morning of); moved with the trip like the reminder. */
export const unassignedAlertKey = (butlerRequestId: number, alert: UnassignedAlert) => `staff.butler_unassigned:${butlerRequestId}:${alert}`;

/** The job kind the notify handler takes. */
export const NOTIFY_JOB = 'notify';

/** The job key of an emitted event (to move or drop a queued one). */
export const notifyJobKey = (key: string) => `${NOTIFY_JOB}:${key}`;

/**
 * Records an event for the outbox inside the caller's transaction. `key` names the occurrence
 * (e.g. `payment.succeeded:sub-12-m3`): the same key is one event, so a retried transaction or
 * a job run twice never produces a second message. `at` is when to send, on the business
 * clock (now for most events; a day before the trip for a reminder).
 */
export async function emit(tx: Db, key: string, event: NotificationEvent, at: Date): Promise<boolean> {
  return enqueue(tx, notification(key, event, at));
}

/** An event as the job emit() records, for a caller that enqueues it with other jobs in one statement. */
export function notification(key: string, event: NotificationEvent, at: Date): JobSpec {
  return { kind: NOTIFY_JOB, key: notifyJobKey(key), payload: event, runAt: at, maxAttempts: 8 };
}

/**
 * An order is received (its first charge paid, or nothing to pay): the customer's 신청 접수 and the
 * staff's new-order alert, once each per order (keyed by it). Sent by the charge's outcome or, for
 * an order with nothing to pay, by the order itself.
 */
export async function emitOrderReceived(tx: Db, order: { service: 'SUBSCRIBE' | 'BUTLER'; userId: number; orderId: number }, at: Date): Promise<void> {
  const { userId, orderId } = order;
  if (order.service === 'SUBSCRIBE') {
    await emit(tx, `subscription.requested:${orderId}`, { type: 'subscription.requested', userId, requestId: orderId }, at);
    await emit(tx, `staff.subscription_requested:${orderId}`, { type: 'staff.subscription_requested', requestId: orderId }, at);
  } else {
    await emit(tx, `butler.requested:${orderId}`, { type: 'butler.requested', userId, butlerRequestId: orderId }, at);
    await emit(tx, `staff.butler_requested:${orderId}`, { type: 'staff.butler_requested', butlerRequestId: orderId }, at);
  }
}
