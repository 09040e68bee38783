import type { Car } from './car';
import type { CardView } from './card-label';
import type { OrderStatus } from './orders';
import type { PaymentView, SubscriptionBillingView } from './payments';
import type { StoredOrderOptions } from './subscription-price';
import type { SwapView } from './swap';

/** A subscription request as GET /subscriptions/requests returns it. */
export interface SubscriptionRequest {
  id: number;
  car: Car;
  month: number;
  status: OrderStatus;
  start_date: string | null;
  end_date: string | null;
  /** The start the customer asked for (YYYY-MM-DD); null on requests from before holds. */
  requested_start: string | null;
  /** While pending: when the hold on the car lapses (ISO); null once confirmed. */
  hold_until: string | null;
  created_at: string;
  coupon: { id: number; coupon: { name: string; code: string } } | null;
  point_used: number;
  /** The monthly fee with the options: what months 2… are charged. */
  fee: number;
  coupon_discount: number;
  /** The first payment: first month after coupon and points, plus 탁송비, 보증금 and 선납금. */
  final_fee: number;
  /** The chosen options, the car's option prices and the quote as ordered; null on requests from before options. */
  options: StoredOrderOptions | null;
  /** Masked by the server: only sent back by the edit form to keep the card (never shown; pages show `card`). */
  billing_key: string;
  /** The card the request charges (issuer, last four digits); null when the provider did not say. */
  card: CardView | null;
  /** The first month's charge, made with the request (null when coupon and points covered it). */
  payment: PaymentView | null;
  /** Ordered in a company's name (법인): the company is the party and pays; the user is its driver. Null for a private order. */
  company?: SubscriptionCompanyView | null;
}

/** The company (법인) a subscription is held by, as its driver and admins see it. */
export interface SubscriptionCompanyView {
  id: number;
  name: string;
  /** CARD: the company card is charged each month; INVOICE: each month goes on the company's statement (후불). */
  billing: 'CARD' | 'INVOICE';
}

/** A subscription as GET /subscriptions returns it. */
export interface Subscription {
  id: number;
  start_date: string;
  end_date: string;
  is_active: boolean;
  is_current: boolean;
  created_at: string;
  request: { id: number; car: Car; month: number; start_date: string | null; end_date: string | null };
  /** Billing months added by 구독 연장 (the term is request.month + these). */
  extended_months: number;
  /** Each extension, oldest first; its 부속 계약서 downloads from /subscriptions/{id}/extensions/{extension id}/annex. */
  extensions: SubscriptionExtensionView[];
  /** 차량 교체 asked for and confirmed (PENDING while its difference is charged), oldest first; docs/decisions/swap.md. */
  swaps: SwapView[];
  billing: SubscriptionBillingView;
  /** Held by a company (법인): it pays; the user drives. Null for a private subscription. */
  company?: SubscriptionCompanyView | null;
}

/** A confirmed 구독 연장 as my page shows it. */
interface SubscriptionExtensionView {
  id: number;
  months: number;
  monthly_fee: number;
  first_month: number;
  last_month: number;
  from_date: string;
  to_date: string;
  created_at: string;
}

/**
 * Whether a subscription reads as ACTIVE on a day (YYYY-MM-DD): staff have not switched it off
 * and its end date has not passed (a subscription that has not started yet is active).
 */
export function subscriptionActive(s: { isActive: boolean; endDate: string }, today: string): boolean {
  return s.isActive && today.slice(0, 10) <= s.endDate.slice(0, 10);
}

// In its own module so that the rules below subscriptions (extension, early exit, swap) need not import this one.
export { termEnd } from './term';

/** GET /subscriptions. */
export interface SubscriptionListAnswer {
  subscriptions: Subscription[];
}

/** POST /subscriptions/{id}/card: the subscription with its new card, whether the old key was deleted at the provider, and (PAST_DUE) the day the owed month is tried again with the new card. */
export interface CardChangeAnswer {
  subscription: Subscription;
  old_card_deleted: boolean;
  retry_date: string | null;
}

/** GET /subscriptions/requests. */
export interface SubscriptionRequestListAnswer {
  subscription_requests: SubscriptionRequest[];
}

/** GET and PUT /subscriptions/requests/{id}. */
export interface SubscriptionRequestAnswer {
  subscription_request: SubscriptionRequest;
}

/**
 * POST /subscriptions/cars/{id}/request: the request and its first month's charge; created is
 * false for a repeat of the same order (the same billing key), answered 202 while its charge is
 * still being confirmed.
 */
export interface SubscriptionOrderAnswer extends SubscriptionRequestAnswer {
  created: boolean;
  payment: PaymentView | null;
  /** A repeat's plain Korean word on it (이미 결제된 구독 신청입니다, 결제 확인 중…: repeatedOrderMessage); null for a new order. */
  message: string | null;
}

/** DELETE /subscriptions/requests/{id}: what went back (points and won). */
export interface SubscriptionCancelAnswer {
  id: number;
  refunded_points: number;
  coupon_returned: boolean;
  refunded_amount: number;
}
