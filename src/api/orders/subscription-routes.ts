import { todayInKorea } from '../../domain/dates';
import { Hono } from 'hono';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { AvailabilityQuerySchema, CodeParamSchema, CouponListQuerySchema, CreateSubscriptionRequestSchema, UpdateSubscriptionRequestSchema } from '../../domain/schemas/orders';
import type { PaymentAnswer } from '../../domain/payments';
import type { CouponAnswer, CouponClaimAnswer, CouponListAnswer } from '../../domain/pricing';
import { ChangeCardSchema, WithdrawalConfirmSchema, EarlyExitDateSchema, EarlyExitQuerySchema, ExtensionAnnexParamSchema, ExtensionConfirmSchema, ExtensionQuerySchema, PayOwedSchema, SwapParamSchema, SwapConfirmSchema, SwapQuerySchema } from '../../domain/schemas/payments';
import { quoteSwap, type SwapQuoteAnswer } from './swap-quote';
import { confirmSwap, type SwapConfirmAnswer } from './swap-confirm';
import { swapAnnexForDownload } from './swap-annexes';
import { cancelSwap, type SwapCancelAnswer } from './swap-cancel';
import { annexForDownload, confirmExtension, quoteExtension, type ExtensionConfirmAnswer, type ExtensionQuoteAnswer } from './extension';
import { confirmWithdrawal, quoteWithdrawal, type WithdrawalDoneAnswer, type WithdrawalQuoteAnswer } from './withdrawal';
import { confirmEarlyExit, quoteEarlyExit, type EarlyExitAnswer, type EarlyExitQuoteAnswer } from '../billing/early-exit';
import { customerOdometer, selfReport, type OdometerAnswer } from '../billing/mileage';
import { SelfOdometerSchema } from '../../domain/schemas/mileage';
import type { SettlementView } from '../../domain/settlement';
import { repeatedOrderMessage } from '../../domain/order-repeat';
import { customerSettlement } from '../billing/settlement';
import type {
  CardChangeAnswer, SubscriptionCancelAnswer, SubscriptionListAnswer, SubscriptionOrderAnswer, SubscriptionRequestAnswer, SubscriptionRequestListAnswer,
} from '../../domain/subscriptions';
import { ok, reservationWrites, validJson, validParams, validQuery, type AppEnv } from '../http';
import { requireUser } from '../auth/guards';
import { claimCoupon, couponByCode, toCoupon, userCouponList } from '../wallet/coupons';
import { getRequest, listRequests } from './subscription-requests';
import { createRequest } from './subscription-request-create';
import { updateRequest } from './subscription-request-update';
import { cancelRequest } from './subscription-request-cancel';
import { listSubscriptions } from './subscription-list';
import { availabilityOf } from '../catalogue/inventory';
import type { AvailabilityAnswer } from '../../domain/availability';
import { changeCard, payOwedMonth } from '../billing/subscription-billing';
import { declinedOrFine } from '../billing/errors';
import { toPaymentView } from '../billing/ledger';
import { contractFileName } from '../../domain/contract';
import { contractForDownload, contractResponse } from './contracts';
import { exitDocumentForDownload } from './exit-document';
import { CompanySubscriptionOrderSchema } from '../../domain/schemas/company';
import { createCompanySubscriptionRequest } from './company-subscription';

/** The user's side of subscriptions: ordering, requests, subscriptions, coupons. Every route needs a login. */
export const subscriptionOrderRoutes = new Hono<AppEnv>()
  // Public: what the static pages show now (구독 가능 / "YYYY.MM.DD부터 구독 가능"); docs/decisions/availability.md.
  .get('/availability', validQuery(AvailabilityQuerySchema), async (c) => {
    const { ids, month, start } = c.req.valid('query');
    c.header('cache-control', 'public, max-age=30');
    return ok(c, { availability: await availabilityOf(c.var.deps.db, [...new Set(ids)], c.var.deps.clock.now(), { month, start }) } satisfies AvailabilityAnswer);
  })
  // An order or a cancel takes or frees the car: the garage's "지금 구독 가능" answers are dropped.
  .use('/cars/*', reservationWrites)
  .use('/requests/*', reservationWrites)
  .get('/', requireUser, async (c) => ok(c, { subscriptions: await listSubscriptions(c.var.deps.db, c.var.userId, todayInKorea(c.var.deps.clock.now())) } satisfies SubscriptionListAnswer))
  .post('/cars/:id/request', requireUser, validParams(IdParamSchema), validJson(CreateSubscriptionRequestSchema), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const { created, request, payment } = await createRequest(c.var.deps, c.var.userId, id, input, c.var.deps.config.holds.days);
    // A repeat (a page retrying after a lost answer) is told plainly it was paid, or 202 while the charge is still being confirmed.
    const message = created ? null : repeatedOrderMessage('SUBSCRIBE', payment?.status ?? null);
    const status = created ? 201 : payment?.status === 'PENDING' ? 202 : 200;
    return ok(c, { subscription_request: request, created, payment: payment ? toPaymentView(payment) : null, message } satisfies SubscriptionOrderAnswer, status);
  })
  // 법인 장기 구독: ordered by the company's admin for a named driver, paid by the company (docs/decisions/business-accounts.md).
  .post('/cars/:id/company-request', requireUser, validParams(IdParamSchema), validJson(CompanySubscriptionOrderSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { created, request, payment } = await createCompanySubscriptionRequest(c.var.deps, c.var.userId, id, c.req.valid('json'), c.var.deps.config.holds.days);
    const message = created ? null : repeatedOrderMessage('SUBSCRIBE', payment?.status ?? null);
    const status = created ? 201 : payment?.status === 'PENDING' ? 202 : 200;
    return ok(c, { subscription_request: request, created, payment: payment ? toPaymentView(payment) : null, message } satisfies SubscriptionOrderAnswer, status);
  })
  .get('/requests', requireUser, async (c) => ok(c, { subscription_requests: await listRequests(c.var.deps.db, c.var.userId) } satisfies SubscriptionRequestListAnswer))
  .get('/requests/:id', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, { subscription_request: await getRequest(c.var.deps.db, c.var.userId, id) } satisfies SubscriptionRequestAnswer);
  })
  // The contract (계약서) PDF of the customer's own request: another's is 404 (docs/decisions/contract.md).
  .get('/requests/:id/contract', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return contractResponse(await contractForDownload(c.var.deps, id, c.var.userId), contractFileName(id));
  })
  // The contract's SHA-256 (what its footer tells the customer to check; a PDF cannot hold its own hash).
  .get('/requests/:id/contract/sha256', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const row = await contractForDownload(c.var.deps, id, c.var.userId);
    return ok(c, { contract: { file_name: contractFileName(id), sha256: row.sha256, byte_size: row.byteSize } });
  })
  .put('/requests/:id', requireUser, validParams(IdParamSchema), validJson(UpdateSubscriptionRequestSchema), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return ok(c, { subscription_request: await updateRequest(c.var.deps, c.var.userId, id, input) } satisfies SubscriptionRequestAnswer);
  })
  .delete('/requests/:id', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, (await cancelRequest(c.var.deps, c.var.userId, id)) satisfies SubscriptionCancelAnswer);
  })
  // 카드 변경 후 결제: the owed month now, with a new card when given.
  .post('/:id/pay', requireUser, validParams(IdParamSchema), validJson(PayOwedSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { billing_key } = c.req.valid('json');
    const payment = await payOwedMonth(c.var.deps, { subscriptionId: id, userId: c.var.userId, billingKey: billing_key });
    declinedOrFine(payment);
    return ok(c, { payment: toPaymentView(payment) } satisfies PaymentAnswer);
  })
  // 결제 카드 변경: the new card is charged from the next charge on (a queued retry included); the old key is deleted at the provider.
  .post('/:id/card', requireUser, validParams(IdParamSchema), validJson(ChangeCardSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { billing_key } = c.req.valid('json');
    const change = await changeCard(c.var.deps, { subscriptionId: id, userId: c.var.userId, billingKey: billing_key });
    const subscription = (await listSubscriptions(c.var.deps.db, c.var.userId, todayInKorea(c.var.deps.clock.now()))).find((s) => s.id === id)!;
    return ok(c, { subscription, old_card_deleted: change.oldKeyDeleted, retry_date: change.retryDate } satisfies CardChangeAnswer);
  })
  // 청약철회 (전자상거래법 제17조): the quote with each part named, then the withdrawal, once (docs/decisions/legal.md §4).
  .get('/:id/withdrawal', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, (await quoteWithdrawal(c.var.deps, id, c.var.userId, c.var.deps.config.withdrawal.days)) satisfies WithdrawalQuoteAnswer);
  })
  // A withdrawal before the handover frees the car's days: the garage's cached answers are dropped.
  .post('/:id/withdrawal', requireUser, reservationWrites, validParams(IdParamSchema), validJson(WithdrawalConfirmSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { quoted_refund } = c.req.valid('json');
    return ok(c, (await confirmWithdrawal(c.var.deps, id, c.var.userId, c.var.deps.config.withdrawal.days, quoted_refund)) satisfies WithdrawalDoneAnswer);
  })
  // 중도 해지: the quote for a return day, then its confirmation (the fee charged once).
  .get('/:id/early-exit', requireUser, validParams(IdParamSchema), validQuery(EarlyExitQuerySchema), async (c) => {
    const { id } = c.req.valid('param');
    const { date } = c.req.valid('query');
    return ok(c, (await quoteEarlyExit(c.var.deps, id, c.var.userId, date)) satisfies EarlyExitQuoteAnswer);
  })
  // A confirmed exit shortens the subscription: the car is free after the return day (garage answers dropped).
  .post('/:id/early-exit', requireUser, reservationWrites, validParams(IdParamSchema), validJson(EarlyExitDateSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { date } = c.req.valid('json');
    return ok(c, { early_exit: await confirmEarlyExit(c.var.deps, id, c.var.userId, date) } satisfies { early_exit: EarlyExitAnswer });
  })
  // 주행거리: the customer's own readings and the once-a-month report (another customer's subscription is a 404).
  .get('/:id/odometer', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, (await customerOdometer(c.var.deps, id, c.var.userId)) satisfies OdometerAnswer);
  })
  .post('/:id/odometer', requireUser, validParams(IdParamSchema), validJson(SelfOdometerSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { km } = c.req.valid('json');
    return ok(c, (await selfReport(c.var.deps, id, c.var.userId, km)) satisfies OdometerAnswer, 201);
  })
  // 구독 연장: the terms one may add and their quote, then the confirmation (docs/decisions/extension.md).
  .get('/:id/extension', requireUser, validParams(IdParamSchema), validQuery(ExtensionQuerySchema), async (c) => {
    const { id } = c.req.valid('param');
    const { months } = c.req.valid('query');
    return ok(c, (await quoteExtension(c.var.deps, id, c.var.userId, months)) satisfies ExtensionQuoteAnswer);
  })
  // A confirmed extension keeps the car longer: the garage's cached answers are dropped.
  .post('/:id/extension', requireUser, reservationWrites, validParams(IdParamSchema), validJson(ExtensionConfirmSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, (await confirmExtension(c.var.deps, id, c.var.userId, c.req.valid('json'))) satisfies ExtensionConfirmAnswer);
  })
  // The 중도 해지 확인서 of the customer's own subscription ended early (issue 49): another's, or one not ended early, is 404.
  .get('/:id/early-exit/document', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { row, fileName } = await exitDocumentForDownload(c.var.deps, id, c.var.userId);
    return contractResponse(row, fileName);
  })
  // The 부속 계약서 of the customer's own extension: another's is 404.
  .get('/:id/extensions/:extensionId/annex', requireUser, validParams(ExtensionAnnexParamSchema), async (c) => {
    const { id, extensionId } = c.req.valid('param');
    const { row, fileName } = await annexForDownload(c.var.deps, id, extensionId, c.var.userId);
    return contractResponse(row, fileName);
  })
  // 차량 교체: the window, the cars and the quote, then the confirmation (docs/decisions/swap.md).
  .get('/:id/swap', requireUser, validParams(IdParamSchema), validQuery(SwapQuerySchema), async (c) => {
    const { id } = c.req.valid('param');
    const { date, car_id } = c.req.valid('query');
    return ok(c, (await quoteSwap(c.var.deps, id, c.var.userId, date, car_id)) satisfies SwapQuoteAnswer);
  })
  // A swap takes the new car from its day and frees the old one after it: the garage's cached answers are dropped.
  .post('/:id/swap', requireUser, reservationWrites, validParams(IdParamSchema), validJson(SwapConfirmSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, (await confirmSwap(c.var.deps, id, c.var.userId, c.req.valid('json'))) satisfies SwapConfirmAnswer);
  })
  // 교체 취소 (until two days before the swap day): the money goes back once; the old car is held again, the new one freed.
  .post('/:id/swaps/:swapId/cancel', requireUser, reservationWrites, validParams(SwapParamSchema), async (c) => {
    const { id, swapId } = c.req.valid('param');
    return ok(c, (await cancelSwap(c.var.deps, id, swapId, c.var.userId)) satisfies SwapCancelAnswer);
  })
  // The 부속 계약서 of the customer's own swap: another's is 404.
  .get('/:id/swaps/:swapId/annex', requireUser, validParams(SwapParamSchema), async (c) => {
    const { id, swapId } = c.req.valid('param');
    const { row, fileName } = await swapAnnexForDownload(c.var.deps, id, swapId, c.var.userId);
    return contractResponse(row, fileName);
  })
  // 반납 정산: the customer's own settlement (null until settled); another customer's subscription is a 404.
  .get('/:id/settlement', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, { settlement: await customerSettlement(c.var.deps.db, id, c.var.userId) } satisfies { settlement: SettlementView | null });
  })
  .get('/coupons', requireUser, validQuery(CouponListQuerySchema), async (c) => {
    const { service } = c.req.valid('query');
    return ok(c, { coupons: await userCouponList(c.var.deps.db, c.var.userId, todayInKorea(c.var.deps.clock.now()), service) } satisfies CouponListAnswer);
  })
  .get('/coupons/:code', requireUser, validParams(CodeParamSchema), async (c) => {
    const { code } = c.req.valid('param');
    return ok(c, { coupon: toCoupon(await couponByCode(c.var.deps.db, code)) } satisfies CouponAnswer);
  })
  .post('/coupons/:code', requireUser, validParams(CodeParamSchema), async (c) => {
    const { code } = c.req.valid('param');
    return ok(c, { coupon: await claimCoupon(c.var.deps.db, c.var.userId, code, todayInKorea(c.var.deps.clock.now())) } satisfies CouponClaimAnswer, 201);
  });
