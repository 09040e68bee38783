import { eq } from 'drizzle-orm';
import { couponRefusal, roundPoints } from '../../domain/pricing';
import { inTransaction, type Db } from '../db/client';
import { isDatabaseUnavailable, isUniqueViolation } from '../db/errors';
import { billingKeyUses, coupons, userCoupons, users } from '../db/schema';
import { ErrorCode } from '../../domain/error-codes';
import { ApiError, conflict, unprocessable } from '../errors';
import { releaseCoupon, toCoupon } from '../wallet/coupons';
export { releaseCoupon };
import { executeCharge, syncPayment } from '../billing/charges';
import { safeError } from '../log-safe';
import type { PaymentContext } from '../payment-context';
import { attemptsOf, recordCharge, type NewCharge } from '../billing/ledger';
import type { CardInfo } from '../payment-provider';
import { lockUser } from '../wallet/points';
import { type PaymentRow } from '../payment-context';
import { ORDER_KINDS, type OrderService } from '../../domain/payments';
import { rowTime } from '../jobs/clock';

/**
 * The service-neutral half of ordering, shared by subscription and butler orders: one
 * transaction per user, coupons for a service, points on the ledger, and a billing key that
 * backs at most one order across both services (idempotent repeats return the first order).
 */
export type Service = OrderService;

export { inTransaction };
export { creditPoints,  spendPoints } from '../wallet/points';

/** Runs `work` in one transaction holding the user's row lock, so one user's spends run one at a time. */
export async function withUserLock<T>(db: Db, userId: number, work: (tx: Db) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    await lockUser(tx, userId);
    return work(tx);
  });
}

class DryRunDone<T> extends Error {
  constructor(readonly value: T) {
    super('dry run');
  }
}

/**
 * Runs `work` under the user's lock in a transaction that is always rolled back, and returns what
 * it computed: an edit learns its new price (coupon checks and all) before any money moves.
 */
export async function dryRun<T>(db: Db, userId: number, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    await withUserLock(db, userId, async (tx) => {
      throw new DryRunDone(await work(tx));
    });
  } catch (err) {
    if (err instanceof DryRunDone) return err.value as T;
    throw err;
  }
  throw new Error('unreachable');
}

/** 422 unless points are whole steps of 10,000 won. */
export function checkPointStep(points: number): void {
  if (roundPoints(points) !== points) throw unprocessable('포인트는 10,000P 단위로 사용할 수 있습니다.', { point_amount: ['10,000P 단위로 입력해주세요.'] });
}

/** 422 when points exceed what is left to pay after the coupon. */
export function checkPointsWithin(points: number, payable: number): void {
  if (points > payable) throw unprocessable('사용 포인트가 결제 금액을 넘을 수 없습니다.', { point_amount: ['결제 금액 이하로 입력해주세요.'] });
}

/**
 * Locks and checks a held coupon inside the caller's transaction, then marks it used: it must
 * be the user's, for `service`, unused, active, in period, and admit `price` (won).
 */
export async function takeCoupon(tx: Db, service: Service, userId: number, holdingId: number, price: number, today: string) {
  const [row] = await tx.select().from(userCoupons).innerJoin(coupons, eq(coupons.id, userCoupons.couponId)).where(eq(userCoupons.id, holdingId)).for('update');
  const fail = (message: string) => unprocessable(message, { coupon_id: [message] });
  const name = ORDER_KINDS[service].label;
  if (!row || row.user_coupons.userId !== userId) throw fail('보유하지 않은 쿠폰입니다.');
  const c = toCoupon(row.coupons);
  if (row.coupons.service !== service) throw fail(`${name} 서비스에 사용할 수 없는 쿠폰입니다.`);
  if (row.user_coupons.isUsed) throw fail('이미 사용한 쿠폰입니다.');
  const refusal = couponRefusal(c, today, price);
  if (!row.coupons.isActive || refusal === 'EXPIRED' || refusal === 'NOT_YET') throw fail('사용 기간이 지났거나 아직 사용할 수 없는 쿠폰입니다.');
  if (refusal === 'PRICE') throw fail(`이 ${name} 요금에는 사용할 수 없는 쿠폰입니다. (적용 가능 금액 범위를 확인해주세요)`);
  await tx.update(userCoupons).set({ isUsed: true, usedAt: rowTime() }).where(eq(userCoupons.id, holdingId));
  return c;
}


const usedKey = () => conflict('이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.', { billing_key: ['이미 사용된 빌링키입니다.'] });

async function keyUse(db: Db, billingKey: string) {
  const [row] = await db.select().from(billingKeyUses).where(eq(billingKeyUses.billingKey, billingKey));
  return row;
}

/**
 * Records that `billingKey` backs an order inside the caller's transaction; 409 when it
 * already backs another one (of either service). A concurrent twin waits on the key's row.
 */
export async function claimBillingKey(tx: Db, use: { billingKey: string; service: Service; userId: number; orderId: number }): Promise<void> {
  const rows = await tx.insert(billingKeyUses).values(use).onConflictDoNothing().returning({ key: billingKeyUses.billingKey });
  if (!rows.length) throw usedKey();
}

class KeyTaken extends Error {}

/**
 * Placing an order exactly once per billing key, as named steps each caller runs top to bottom:
 * priorOrder (a repeat?) → requireVerifiedAccount → the order's own checks (no transaction) →
 * verifiedCard → inOrderLock { price · record · claimKey · the charge recorded PENDING, or the
 * "requested" messages when nothing is charged } → chargeNow → declinedOrFine → the order loaded.
 * A repeat by the same user for the same service answers the first order (`created: false`); a key
 * already behind another user's order, or an order of the other service, is 409. Declined: the
 * charge's follow-up undoes the order (coupon and points back, the key free) and declinedOrFine
 * answers 422 with the provider's reason. Unknown (a timeout): the order stands with its charge
 * PENDING until the reconcile job settles it; a repeat meanwhile asks the provider (knownCharge)
 * and never charges again. An Orderer: who orders, for which service, under which key.
 */
export interface Orderer {
  service: Service;
  userId: number;
  /** The order's idempotency key: the card's billing key, or a company booking's own key. */
  billingKey: string;
}

/** A repeat's answer: the first order and its placement charge as known now (null: none). */
interface PriorOrder {
  created: false;
  orderId: number;
  payment: PaymentRow | null;
}

/** What the locked transaction placed: the new order and its PENDING charge (null: nothing charged now). */
interface NewOrder {
  created: true;
  orderId: number;
  chargeId: string | null;
}

/** The first order of `who`'s key, when the key already backs one: the repeat's answer (409 when it is not theirs for this service). */
export async function priorOrder(ctx: PaymentContext, who: Orderer): Promise<PriorOrder | null> {
  const use = await keyUse(ctx.db, who.billingKey);
  return use ? repeatOf(ctx, who, use) : null;
}

async function repeatOf(ctx: PaymentContext, who: Orderer, use: { service: string; userId: number; orderId: number } | undefined): Promise<PriorOrder> {
  if (!use || use.userId !== who.userId || use.service !== who.service) throw usedKey();
  return { created: false, orderId: use.orderId, payment: await knownCharge(ctx, who.service, use.orderId) };
}

/** The signup page promises it: only an account that passed identity verification orders (403 IDENTITY_REQUIRED otherwise). */
export async function requireVerifiedAccount(db: Db, who: { userId: number; service: Service }): Promise<void> {
  const [user] = await db.select({ verified: users.ciVerified }).from(users).where(eq(users.id, who.userId)).limit(1);
  if (user?.verified) return;
  throw new ApiError(403, ErrorCode.IDENTITY_REQUIRED, `본인인증을 마친 회원만 ${ORDER_KINDS[who.service].label} 서비스를 신청할 수 있습니다. 본인인증 후 다시 신청해주세요.`, { identity: ['본인인증이 필요합니다.'] });
}

/**
 * The card charged, verified with the provider before anything is spent (after the order's own
 * checks); null when nothing is charged by card (`cardKey` null: a company's monthly invoice).
 */
export async function verifiedCard(ctx: PaymentContext, cardKey: string | null): Promise<CardInfo | null> {
  return cardKey ? ctx.payments.verifyBillingKey(cardKey) : null;
}

/**
 * Runs `work` (the caller's price · record · claimKey · charge or received) in one transaction
 * under the user's lock, so coupon, points, the order and its PENDING charge commit together. A
 * twin with the same key that committed first (found under the lock, by claimKey, or as a unique
 * violation) makes this one a repeat: the first order's answer.
 */
export async function inOrderLock(ctx: PaymentContext, who: Orderer, work: (tx: Db) => Promise<Omit<NewOrder, 'created'>>): Promise<NewOrder | PriorOrder> {
  try {
    const placed = await withUserLock(ctx.db, who.userId, async (tx) => {
      // A twin with the same key may have committed while this one waited for the lock.
      if (await keyUse(tx, who.billingKey)) throw new KeyTaken();
      return work(tx);
    });
    return { created: true, ...placed };
  } catch (err) {
    if (!(err instanceof KeyTaken) && !isUniqueViolation(err)) throw err;
    const winner = await keyUse(ctx.db, who.billingKey);
    // Another unique rule of the order itself (not the key) is the caller's to explain.
    if (!winner && !(err instanceof KeyTaken)) throw err;
    return repeatOf(ctx, who, winner);
  }
}

/** Inside inOrderLock: records that the key backs the new order; a twin that got there first makes this one a repeat. */
export async function claimKey(tx: Db, who: Orderer, orderId: number): Promise<void> {
  const rows = await tx.insert(billingKeyUses).values({ billingKey: who.billingKey, service: who.service, userId: who.userId, orderId }).onConflictDoNothing().returning();
  if (!rows.length) throw new KeyTaken();
}

/**
 * Inside inOrderLock: the new order's charge for `charge.amount` (its first month, its fee),
 * recorded PENDING with the order; the card is charged after commit (chargeNow). Its paid outcome
 * sends the order's "requested" messages (charge-outcomes.ts).
 */
export async function recordOrderCharge(tx: Db, ctx: PaymentContext, charge: NewCharge): Promise<string> {
  await recordCharge(tx, ctx.payments.name, charge, ctx.clock.now());
  return charge.id;
}

/** After commit: the card charged for the recorded charge (null: nothing was charged). */
export async function chargeNow(ctx: PaymentContext, chargeId: string | null): Promise<PaymentRow | null> {
  return chargeId ? executeCharge(ctx, chargeId) : null;
}

/**
 * The charge of an order a repeat found. Still PENDING (the first answer was lost, or the first
 * request is still waiting for the provider): the provider's record is read once, a read and
 * never a charge, so a page retrying after a 503 learns that the card was charged now rather
 * than when the reconcile job runs. A provider that cannot be read leaves it PENDING.
 */
async function knownCharge(ctx: PaymentContext, service: Service, orderId: number): Promise<PaymentRow | null> {
  const payment = await firstCharge(ctx.db, service, orderId);
  if (payment?.status !== 'PENDING') return payment;
  try {
    await syncPayment(ctx, payment.id);
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err;
    ctx.log('info', `payment ${payment.id}: the provider could not be read for a repeated order; answered PENDING`, safeError(err));
    return payment;
  }
  return firstCharge(ctx.db, service, orderId);
}

/** The charge an order made when it was placed (the latest attempt), if any. */
async function firstCharge(db: Db, service: Service, orderId: number): Promise<PaymentRow | null> {
  const kind = ORDER_KINDS[service];
  const rows = await attemptsOf(db, kind.refType, orderId, kind.placed);
  return rows.at(-1) ?? null;
}
