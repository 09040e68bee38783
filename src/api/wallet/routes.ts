import { Hono } from 'hono';
import type { PointCouponAnswer, PointHistoryAnswer, ReferralStatus } from '../../domain/accounts';
import { CodeParamSchema } from '../../domain/schemas/orders';
import { ok, validParams, type AppEnv } from '../http';
import { requireUser } from '../auth/guards';
import { redeemPointCoupon } from './coupons';
import { pointBalance, pointHistory } from './points';
import { applyReferralCode, referralStatus } from './referrals';
import { todayInKorea } from '../../domain/dates';

/** Points and referrals of the logged-in user. */
export const userWalletRoutes = new Hono<AppEnv>()
  .post('/point-coupons/:code', requireUser, validParams(CodeParamSchema), async (c) => {
    return ok(c, (await redeemPointCoupon(c.var.deps.db, c.var.userId, c.req.valid('param').code, todayInKorea(c.var.deps.clock.now()))) satisfies PointCouponAnswer, 201);
  })
  .get('/point-transactions', requireUser, async (c) => {
    const { db } = c.var.deps;
    return ok(c, { point: await pointBalance(db, c.var.userId), point_transactions: await pointHistory(db, c.var.userId) } satisfies PointHistoryAnswer);
  })
  .get('/referrals', requireUser, async (c) => ok(c, (await referralStatus(c.var.deps.db, c.var.userId)) satisfies ReferralStatus))
  .post('/referrals/:code', requireUser, validParams(CodeParamSchema), async (c) => {
    await applyReferralCode(c.var.deps.db, c.var.userId, c.req.valid('param').code);
    return ok(c, (await referralStatus(c.var.deps.db, c.var.userId)) satisfies ReferralStatus, 201);
  });
