import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ConfirmRequestSchema, TestLicenceSchema, TestUserSchema } from '../../domain/schemas/orders';
import { insertLicence, insertTestIdentity, insertUser } from '../seed/factories';
import { coupons, identityVerifications, userCoupons, users } from '../db/schema';
import { notFound } from '../errors';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { requireAdmin, requireFixtures } from '../auth/guards';
import { cancelRequest } from './subscription-request-cancel';
import { cancelTakenRequests, confirmRequest } from './subscription-confirm';
import { setSubscriptionActive } from './subscription-active';
import { creditPoints } from '../wallet/points';
import { openSession } from '../accounts/sessions';
import { auditedAction, auditedCall } from '../audit/audit';
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
    const { start_date, end_date, cancel_conflicting } = c.req.valid('json');
    const { db } = c.var.deps;
    const actor = c.get('actor');
    const subscription = await auditedAction(db, actor, { action: 'confirm', entity: 'subscription_request', entityId: id }, (tx) => confirmRequest(tx, id, start_date, end_date, c.var.deps.clock.now(), cancel_conflicting));
    // The requests that lost their days (issue 49): refunded, cancelled and told, each once.
    const cancelled_conflicting = await cancelTakenRequests(c.var.deps, subscription.conflicting_request_ids, (rid, owner) =>
      auditedCall(db, actor, { action: 'cancel', entity: 'subscription_request', entityId: rid }, (audit) => cancelRequest(c.var.deps, owner, rid, { actor: `staff:${actor.name}`, audit, reason: 'car_taken' })),
    );
    return ok(c, { subscription, cancelled_conflicting }, 201);
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
    const birthDate = input.birth_date ?? '1990-03-15';
    const user = await insertUser(db, { ...(input.name ? { name: input.name } : {}), ...(input.unverified ? { ciVerified: false } : {}) }, { licence: input.licence, birthDate });
    // Without a licence the customer checks one on the order page: the holder's name and birth date come from 본인인증.
    if (input.licence === false && !input.unverified) await insertTestIdentity(db, user, birthDate);
    if (input.points) await creditPoints(db, { userId: user.id, amount: input.points, reason: 'ADMIN', description: '테스트 지급' });
    for (const code of input.coupons ?? []) {
      const [coupon] = await db.select().from(coupons).where(eq(coupons.code, code.toUpperCase()));
      if (coupon) await db.insert(userCoupons).values({ userId: user.id, couponId: coupon.id }).onConflictDoNothing();
    }
    const { access_token: token } = await openSession(db, config, user.id);
    return ok(c, { user: { id: user.id, username: user.username, referral_code: user.referralCode }, access_token: token }, 201);
  })
  // Test fixture: a checked licence (the sandbox's VALID answer) for an account signed up through the identity sandbox.
  .post('/test-licences', requireFixtures, requireAdmin, validJson(TestLicenceSchema), async (c) => {
    const { db } = c.var.deps;
    const { user_id } = c.req.valid('json');
    const [person] = await db
      .select({ name: identityVerifications.name, birthDate: identityVerifications.birthDate })
      .from(users)
      .innerJoin(identityVerifications, eq(identityVerifications.ci, users.ci))
      .where(eq(users.id, user_id))
      .limit(1);
    if (!person?.name || !person.birthDate) throw notFound('본인인증을 마친 회원을 찾을 수 없습니다.');
    const licence = await insertLicence(db, user_id, { name: person.name, birthDate: person.birthDate });
    return ok(c, { licence_id: licence.id }, 201);
  });
