import { PROVIDER } from '../config/services';
import type { OfferPeriod } from '../domain/checkout';
import { API_BASE, type ApiPath } from './api';
import { SandboxOffError, sandboxOn, type ProviderSettings } from './sandbox';

/** The build's billing channel and sandbox switch. */
const BUILD_BILLING: ProviderSettings = { storeId: PROVIDER.portoneStoreId, channelKey: PROVIDER.billingChannelKey, sandbox: PROVIDER.sandbox };

/** What the provider hands back, by redirect query or (PortOne iframe/popup) by promise. */
export interface BillingReturn {
  transactionType: string | null;
  billingKey: string | null;
  code: string | null;
  message: string | null;
}

/** Reads a billing-key return from a query string; null when the page was not opened by one. */
export function readBillingReturn(search: string): BillingReturn | null {
  const q = new URLSearchParams(search);
  if (q.get('transactionType') !== 'ISSUE_BILLING_KEY') return null;
  return { transactionType: 'ISSUE_BILLING_KEY', billingKey: q.get('billingKey'), code: q.get('code'), message: q.get('message') };
}

/** Query keys a provider return adds to the page's URL. */
const RETURN_KEYS = ['billingKey', 'transactionType', 'code', 'message', 'pgCode', 'pgMessage', 'txId', 'billingIssueToken'];

/** The page's URL without the provider's return query, so a reload does not replay it. */
export function withoutBillingReturn(href: string): string {
  const url = new URL(href);
  for (const k of RETURN_KEYS) url.searchParams.delete(k);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Whether a return is a failure: a code other than SUCCESS, or no billing key. */
export function billingFailed(r: BillingReturn): boolean {
  return (r.code !== null && r.code !== 'SUCCESS') || !r.billingKey;
}

export interface IssueRequest {
  /** Page the provider returns to, with its own query kept (month, carId). */
  redirectUrl: string;
  issueName: string;
  /** Won shown in the payment window, or null when the fee needs an inquiry. */
  amount: number | null;
  /** How long the card is offered for (termOfferPeriod, butlerOfferPeriod in src/domain/checkout.ts). */
  offerPeriod: OfferPeriod;
  customerId?: string;
}

/**
 * Launches card billing-key issuance: PortOne when the build has a store id, else the API's
 * sandbox page (SandboxOffError when the build says the sandbox is off); `provider` is the
 * build's unless a test passes its own. Resolves with a result only when PortOne answers in place (iframe or
 * popup); after a redirect the page is gone and the return arrives in the query.
 */
export async function issueBillingKey(req: IssueRequest, provider: ProviderSettings = BUILD_BILLING): Promise<BillingReturn | null> {
  const { storeId } = provider;
  if (!storeId) {
    if (!sandboxOn(provider.sandbox)) throw new SandboxOffError('결제 수단 등록');
    const q = new URLSearchParams({ redirectUrl: req.redirectUrl, issueName: req.issueName });
    if (req.amount !== null) q.set('amount', String(req.amount));
    location.assign(`${API_BASE}${'/sandbox/billing-key' satisfies ApiPath}?${q}`);
    return null;
  }
  const PortOne = await import('@portone/browser-sdk/v2');
  const res = await PortOne.requestIssueBillingKey({
    storeId,
    channelKey: provider.channelKey,
    billingKeyMethod: 'CARD',
    issueId: `issue-${crypto.randomUUID()}`,
    issueName: req.issueName,
    ...(req.amount !== null ? { displayAmount: req.amount, currency: 'KRW' as const } : {}),
    offerPeriod: 'days' in req.offerPeriod ? { interval: `${req.offerPeriod.days}d` } : { range: { from: req.offerPeriod.from, to: req.offerPeriod.to } },
    redirectUrl: req.redirectUrl,
    ...(req.customerId ? { customer: { customerId: req.customerId } } : {}),
  });
  if (!res) return null;
  return { transactionType: res.transactionType ?? 'ISSUE_BILLING_KEY', billingKey: res.billingKey ?? null, code: res.code ?? null, message: res.message ?? null };
}
