import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ConfirmRequestSchema, TestUserSchema } from '../../domain/schemas/orders';
import { insertUser } from '../seed/factories';
import { coupons, userCoupons } from '../db/schema';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { requireAdmin, requireFixtures } from '../auth/guards';
import { confirmRequest, setSubscriptionActive } from './subscription-orders';
import { creditPoints } from '../wallet/points';
import { openSession } from '../accounts/sessions';
import { auditedAction } from '../audit/audit';
import { contractFileName } from '../../domain/contract';
import { contractForDownload, contractResponse } from './contracts';

const ActiveSchema = z.object({ is_active: z.boolean({ error: 'is_active는 true 또는 false여야 합니다.' }) });

/** Staff actions on orders (ADMIN_TOKEN): confirming a request creates the subscription. */
export const adminOrderRoutes = new Hono<AppEnv>()
  // Confirming and switching subscriptions changes which cars are free: the garage's "지금 구독 가능" answers are dropped.
  .use('/subscription-requests/*', reservationWrites)
  .use('/subscriptions/*', reservationWrites)
  .post('/subscription-requests/:id/confirm', requireAdmin, validParams(IdParamSchema), validJson(ConfirmRequestSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { start_date, end_date } = c.req.valid('json');
    const subscription = await auditedAction(c.var.deps.db, c.get('actor'), { action: 'confirm', entity: 'subscription_request', entityId: id }, (tx) => confirmRequest(tx, id, start_date, end_date, c.var.deps.clock.now()));
    return ok(c, { subscription }, 201);
  })
  // Staff: any request's contract PDF (the console's 계약서 button).
  .get('/subscription-requests/:id/contract', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return contractResponse(await contractForDownload(c.var.deps, id, null), contractFileName(id));
  })
  .patch('/subscriptions/:id', requireAdmin, validParams(IdParamSchema), validJson(ActiveSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { is_active } = c.req.valid('json');
    const subscription = await auditedAction(c.var.deps.db, c.get('actor'), { action: 'update', entity: 'subscription', entityId: id }, (tx) => setSubscriptionActive(tx, id, is_active, c.var.deps.clock.now()));
    return ok(c, { subscription });
  })
  // Test fixture for end-to-end runs: a user with points and coupons, and an access token (TEST_FIXTURES=on only).
  .post('/test-users', requireFixtures, requireAdmin, validJson(TestUserSchema), async (c) => {
    const { db, config } = c.var.deps;
    const input = c.req.valid('json');
    const user = await insertUser(db, { ...(input.name ? { name: input.name } : {}), ...(input.unverified ? { ciVerified: false } : {}) });
    if (input.points) await creditPoints(db, { userId: user.id, amount: input.points, reason: 'ADMIN', description: '테스트 지급' });
    for (const code of input.coupons ?? []) {
      const [coupon] = await db.select().from(coupons).where(eq(coupons.code, code.toUpperCase()));
      if (coupon) await db.insert(userCoupons).values({ userId: user.id, couponId: coupon.id }).onConflictDoNothing();
    }
    const { access_token: token } = await openSession(db, config, user.id);
    return ok(c, { user: { id: user.id, username: user.username, referral_code: user.referralCode }, access_token: token }, 201);
  });
