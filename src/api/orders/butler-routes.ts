import { Hono } from 'hono';
import type { ButlerCancelAnswer, ButlerCancelPreview, ButlerOrderAnswer, ButlerRequestAnswer, ButlerRequestListAnswer, ButlerSubscriptionListAnswer, TripRatingAnswer } from '../../domain/butler';
import type { PaymentAnswer } from '../../domain/payments';
import { legalAnswer, type ButlerLegalAnswer } from '../../domain/butler-legal';
import { legalModelOf } from './butler-legal';
import type { CouponListAnswer } from '../../domain/pricing';
import { ButlerRequestUpdateSchema, ButlerReservationSchema, CarIdParamSchema, OwnCarReservationSchema, TripRatingSchema } from '../../domain/schemas/butler';
import type { OwnCarChoicesAnswer } from '../../domain/butler-own-car';
import { subscriptionCarChoices } from './own-car-subscriptions';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { CompanyButlerReservationSchema } from '../../domain/schemas/company';
import { createCompanyButlerRequest } from './company-butler';
import { PayOwedSchema } from '../../domain/schemas/payments';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { requireUser } from '../auth/guards';
import { createButlerRequest } from './butler-request-create';
import { createOwnCarRequest } from './butler-own-car-request';
import { updateButlerRequest } from './butler-request-update';
import { cancelButlerRequest, previewButlerCancel } from './butler-cancel';
import { getButlerRequest, listButlerRequests } from './butler-views';
import { listButlerSubscriptions } from './butler-subscriptions';
import { rateTrip } from './butler-rating';
import { declinedOrFine } from '../billing/errors';
import { toPaymentView } from '../billing/ledger';
import { payOwedOvertime } from '../billing/butler-billing';
import { userCouponList } from '../wallet/coupons';
import { todayInKorea } from '../../domain/dates';

/**
 * The user's side of the butler service (mounted under /butlers next to the public fleet
 * routes, which stay open). Each route carries requireUser itself: a router-wide middleware
 * here would also close GET /butlers/cars.
 */
export const butlerOrderRoutes = new Hono<AppEnv>()
  .use('/cars/*', reservationWrites)
  .use('/requests/*', reservationWrites)
  .get('/', requireUser, async (c) => ok(c, { butlers: await listButlerSubscriptions(c.var.deps.db, c.var.userId, c.var.deps.clock.now()) } satisfies ButlerSubscriptionListAnswer))
  // Which legal model runs and what the form asks for it (public: the form shows it before login).
  .get('/legal', (c) => ok(c, legalAnswer(legalModelOf(c), c.var.deps.config.butlerLegal.partner, c.var.deps.config.butlerLegal.ownCarHourlyRate) satisfies ButlerLegalAnswer))
  .get('/coupons', requireUser, async (c) => ok(c, { coupons: await userCouponList(c.var.deps.db, c.var.userId, todayInKorea(c.var.deps.clock.now()), 'BUTLER') } satisfies CouponListAnswer))
  .post('/cars/:carId/request', requireUser, validParams(CarIdParamSchema), validJson(ButlerReservationSchema), async (c) => {
    const { carId } = c.req.valid('param');
    const input = c.req.valid('json');
    const { created, request, payment } = await createButlerRequest(c.var.deps, c.var.userId, carId, input, c.var.deps.clock.now(), { model: legalModelOf(c), partner: c.var.deps.config.butlerLegal.partner });
    return ok(c, { butler_request: request, created, payment: payment ? toPaymentView(payment) : null } satisfies ButlerOrderAnswer, created ? 201 : 200);
  })
  // A trip booked for a company (법인): its own branch, createCompanyButlerRequest (billed to the company's card or invoice).
  .post('/cars/:carId/company-request', requireUser, validParams(CarIdParamSchema), validJson(CompanyButlerReservationSchema), async (c) => {
    const { carId } = c.req.valid('param');
    const { created, request, payment } = await createCompanyButlerRequest(c.var.deps, c.var.userId, carId, c.req.valid('json'), c.var.deps.clock.now(), { model: legalModelOf(c), partner: c.var.deps.config.butlerLegal.partner });
    return ok(c, { butler_request: request, created, payment: payment ? toPaymentView(payment) : null } satisfies ButlerOrderAnswer, created ? 201 : 200);
  })
  // BUTLER_LEGAL_MODEL=own-car: the customer's active subscription cars to book a driver for, and the driver-only booking.
  .get('/own-car/cars', requireUser, async (c) =>
    ok(c, { cars: await subscriptionCarChoices(c.var.deps.db, c.var.userId, todayInKorea(c.var.deps.clock.now())) } satisfies OwnCarChoicesAnswer))
  .post('/own-car/request', requireUser, validJson(OwnCarReservationSchema), async (c) => {
    const { butlerLegal } = c.var.deps.config;
    const setting = { model: legalModelOf(c), partner: butlerLegal.partner, ownCarHourlyRate: butlerLegal.ownCarHourlyRate };
    const { created, request, payment } = await createOwnCarRequest(c.var.deps, c.var.userId, c.req.valid('json'), c.var.deps.clock.now(), setting);
    return ok(c, { butler_request: request, created, payment: payment ? toPaymentView(payment) : null } satisfies ButlerOrderAnswer, created ? 201 : 200);
  })
  .get('/requests', requireUser, async (c) => ok(c, { butler_requests: await listButlerRequests(c.var.deps.db, c.var.userId, c.var.deps.clock.now()) } satisfies ButlerRequestListAnswer))
  .get('/requests/:id', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, { butler_request: await getButlerRequest(c.var.deps.db, c.var.userId, id, c.var.deps.clock.now()) } satisfies ButlerRequestAnswer);
  })
  .put('/requests/:id', requireUser, validParams(IdParamSchema), validJson(ButlerRequestUpdateSchema), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return ok(c, { butler_request: await updateButlerRequest(c.var.deps, c.var.userId, id, input, c.var.deps.clock.now()) } satisfies ButlerRequestAnswer);
  })
  // What a cancel now would refund (the server's policy and clock), for the confirm dialog.
  .get('/requests/:id/cancel-preview', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, (await previewButlerCancel(c.var.deps, c.var.deps.config.payments.butlerRefund, c.var.userId, id)) satisfies ButlerCancelPreview);
  })
  .delete('/requests/:id', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, (await cancelButlerRequest(c.var.deps, c.var.deps.config.payments.butlerRefund, c.var.userId, id)) satisfies ButlerCancelAnswer);
  })
  // The customer's rating of the finished trip, once.
  .post('/requests/:id/rating', requireUser, validParams(IdParamSchema), validJson(TripRatingSchema), async (c) => {
    const { id } = c.req.valid('param');
    const rating = await rateTrip(c.var.deps.db, c.var.userId, id, c.req.valid('json'), c.var.deps.clock.now());
    return ok(c, { rating } satisfies TripRatingAnswer, 201);
  })
  // 카드 변경 후 결제: a declined overtime charge now, with a new card when given (as POST /subscriptions/{id}/pay).
  .post('/requests/:id/pay', requireUser, validParams(IdParamSchema), validJson(PayOwedSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { billing_key } = c.req.valid('json');
    const payment = await payOwedOvertime(c.var.deps, { requestId: id, userId: c.var.userId, billingKey: billing_key });
    declinedOrFine(payment);
    return ok(c, { payment: toPaymentView(payment) } satisfies PaymentAnswer);
  });
