import { and, desc, eq } from 'drizzle-orm';
import { couponRefusal, type CouponHolding } from '../../domain/pricing';
import type { Db } from '../db/client';
import { coupons, pointCoupons, userCoupons } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { creditPoints, pointBalance } from './points';

type CouponRow = typeof coupons.$inferSelect;

/** Returns a held coupon to the user (cancel, edit, a declined first charge). */
export async function releaseCoupon(tx: Db, holdingId: number): Promise<void> {
  await tx.update(userCoupons).set({ isUsed: false, usedAt: null }).where(eq(userCoupons.id, holdingId));
}
type HoldingRow = typeof userCoupons.$inferSelect;

/** A coupon row in API shape. */
export function toCoupon(c: CouponRow) {
  return {
    id: c.id, name: c.name, code: c.code, description: c.description, service: c.service,
    discount_type: c.discountType, discount_rate: c.discountRate, discount: c.discount,
    valid_from: c.validFrom, valid_to: c.validTo, min_price: c.minPrice, max_price: c.maxPrice,
  };
}

/** A held coupon in API shape; is_valid = active and within its period today. */
function toHolding(h: HoldingRow, c: CouponRow, today: string): CouponHolding {
  const coupon = toCoupon(c);
  return { id: h.id, is_used: h.isUsed, is_valid: c.isActive && couponRefusal(coupon, today) === null, coupon };
}

/** The user's coupons, newest first, optionally of one service (SUBSCRIBE or BUTLER). */
export async function userCouponList(db: Db, userId: number, today: string, service?: string): Promise<CouponHolding[]> {
  const where = service ? and(eq(userCoupons.userId, userId), eq(coupons.service, service)) : eq(userCoupons.userId, userId);
  const rows = await db.select().from(userCoupons).innerJoin(coupons, eq(coupons.id, userCoupons.couponId)).where(where).orderBy(desc(userCoupons.id));
  return rows.map((r) => toHolding(r.user_coupons, r.coupons, today));
}

/** A coupon by code, or 404. */
export async function couponByCode(db: Db, code: string) {
  const [row] = await db.select().from(coupons).where(eq(coupons.code, code));
  if (!row || !row.isActive) throw notFound('존재하지 않는 쿠폰 코드입니다.');
  return row;
}

/** POST /subscriptions/coupons/{code}: the user receives the coupon once, while it is valid. */
export async function claimCoupon(db: Db, userId: number, code: string, today: string): Promise<CouponHolding> {
  const coupon = await couponByCode(db, code);
  if (couponRefusal(toCoupon(coupon), today)) throw unprocessable('사용 기간이 아닌 쿠폰입니다.', { code: ['사용 기간이 아닌 쿠폰입니다.'] });
  const [row] = await db.insert(userCoupons).values({ userId, couponId: coupon.id }).onConflictDoNothing().returning();
  if (!row) throw conflict('이미 등록한 쿠폰입니다.', { code: ['이미 등록한 쿠폰입니다.'] });
  return toHolding(row, coupon, today);
}

/** POST /users/point-coupons/{code}: credits the point coupon's amount once per user. */
export async function redeemPointCoupon(db: Db, userId: number, code: string, today: string) {
  const [pc] = await db.select().from(pointCoupons).where(eq(pointCoupons.code, code));
  if (!pc) throw notFound('존재하지 않는 포인트 쿠폰입니다.');
  if (couponRefusal({ valid_from: pc.validFrom, valid_to: pc.validTo }, today)) throw unprocessable('사용 기간이 아닌 포인트 쿠폰입니다.', { code: ['사용 기간이 아닌 포인트 쿠폰입니다.'] });
  const credited = await creditPoints(db, { userId, amount: pc.amount, reason: 'POINT_COUPON', refType: 'point_coupon', refId: pc.id, description: pc.name });
  if (!credited) throw conflict('이미 사용한 포인트 쿠폰입니다.', { code: ['이미 사용한 포인트 쿠폰입니다.'] });
  return { amount: pc.amount, name: pc.name, point: await pointBalance(db, userId) };
}
