import { Hono } from 'hono';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { CodeParamSchema, CouponListQuerySchema, CreateSubscriptionRequestSchema, UpdateSubscriptionRequestSchema } from '../../domain/schemas/orders';
import { ok, parseJson, parseParams, parseQuery, type AppEnv } from '../http';
import { requireUser } from '../middleware/auth';
import { claimCoupon, couponByCode, toCoupon, userCouponList } from '../services/coupons';
import { cancelRequest, createRequest, getRequest, listRequests, listSubscriptions, updateRequest } from '../services/subscription-orders';

/** The user's side of subscriptions: ordering, requests, subscriptions, coupons. Every route needs a login. */
export const subscriptionOrderRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, { subscriptions: await listSubscriptions(c.var.deps.db, c.var.userId) }))
  .post('/cars/:id/request', requireUser, async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    const input = await parseJson(c, CreateSubscriptionRequestSchema);
    const { db, config } = c.var.deps;
    const { created, request } = await createRequest(db, config, c.var.userId, id, input);
    return ok(c, { subscription_request: request, created }, created ? 201 : 200);
  })
  .get('/requests', requireUser, async (c) => ok(c, { subscription_requests: await listRequests(c.var.deps.db, c.var.userId) }))
  .get('/requests/:id', requireUser, async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    return ok(c, { subscription_request: await getRequest(c.var.deps.db, c.var.userId, id) });
  })
  .put('/requests/:id', requireUser, async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    const input = await parseJson(c, UpdateSubscriptionRequestSchema);
    return ok(c, { subscription_request: await updateRequest(c.var.deps.db, c.var.deps.config, c.var.userId, id, input) });
  })
  .delete('/requests/:id', requireUser, async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    return ok(c, await cancelRequest(c.var.deps.db, c.var.userId, id));
  })
  .get('/coupons', requireUser, async (c) => {
    const { service } = parseQuery(c, CouponListQuerySchema);
    return ok(c, { coupons: await userCouponList(c.var.deps.db, c.var.userId, service) });
  })
  .get('/coupons/:code', requireUser, async (c) => {
    const { code } = parseParams(c, CodeParamSchema);
    return ok(c, { coupon: toCoupon(await couponByCode(c.var.deps.db, code)) });
  })
  .post('/coupons/:code', requireUser, async (c) => {
    const { code } = parseParams(c, CodeParamSchema);
    return ok(c, { coupon: await claimCoupon(c.var.deps.db, c.var.userId, code) }, 201);
  });
