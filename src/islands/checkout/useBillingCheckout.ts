import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../../client/api';
import { PAYMENT_DECLINED_CODE, type ApiFailure } from '../../domain/error-codes';
import type { PaymentView } from '../../domain/payments';
import { billingFailed, issueBillingKey, readBillingReturn, withoutBillingReturn, type IssueRequest } from '../../client/billing';
import { readMarker, writeMarker, type CheckoutStorage } from './checkoutStorage';

/** The texts a checkout shows at each failure (each service keeps its spec's wording). */
export interface CheckoutMessages {
  /** Alert when the provider returns a failure code; gets the provider's message. */
  providerFailed: (message: string) => string;
  /**
   * Alert when the order could not be created after the card was registered; a function may
   * word it by the refusal, and return null for a refusal the page explains itself (no alert).
   */
  sendFailed: string | ((refusal: { status: number; error: ApiFailure }) => string | null);
  /** Alert when the provider could not be called at all (SDK not loaded, …). */
  callFailed: (message: string) => string;
}

export type CheckoutStage = 'idle' | 'sending' | 'done';

interface Options<D> {
  storage: CheckoutStorage<D>;
  /** Creates the order with the billing key and the saved draft (null if it was lost); the answer carries the charge. */
  send: (billingKey: string, draft: D | null) => Promise<ApiResult<object>>;
  messages: CheckoutMessages;
  /** Whether a return found in the URL belongs to this page now (e.g. its ids are known). */
  ready?: boolean;
  /**
   * The server makes one order per billing key (src/api/orders/checkout.ts): an answer lost to a 503, the
   * network or a timeout is asked for again with the same key, then offered as 다시 시도 (issue 47).
   */
  resend?: boolean;
}

/** Waits before each resend of an order whose answer was lost (ms); after the last, 다시 시도. */
const RESEND_DELAYS_MS = [1_000, 3_000, 8_000];

/** An answer that says nothing of the order: it may or may not have been made (and charged). */
const lost = (status: number) => status === 0 || (status >= 502 && status <= 504);

/**
 * The billing-return protocol of both checkouts: save the draft, launch the provider, and on
 * its return (redirect query or in-place answer) send the order exactly once per billing key;
 * a key this tab already sent shows the completion directly. The order is charged at once: the
 * completion shows the charge (결제 완료 and the amount, or 결제 확인 중), and a declined card keeps
 * the draft and offers another card (`retry`). With `resend`, an answer still lost after the
 * resends leaves `unsure`, and `resume` (다시 시도) sends the same key again.
 */
export function useBillingCheckout<D>({ storage, send, messages, ready = true, resend = false }: Options<D>) {
  const [stage, setStage] = useState<CheckoutStage>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const [payment, setPayment] = useState<PaymentView | null>(null);
  /** The card was declined: the provider's reason in Korean (the order was not made, nothing spent). */
  const [declined, setDeclined] = useState<string | null>(null);
  /** The billing key of an order whose answer was lost after every resend: 다시 시도 sends it again. */
  const [unsure, setUnsure] = useState<string | null>(null);
  /** The server's word on a repeat (이미 결제된 구독 신청입니다, 결제 확인 중…). */
  const [notice, setNotice] = useState<string | null>(null);
  const handled = useRef(false);
  const latest = useRef({ storage, send, messages, resend });
  latest.current = { storage, send, messages, resend };

  const deliver = useCallback(async (billingKey: string) => {
    const { storage: s, send: sendOrder, messages: m, resend: again } = latest.current;
    setUnsure(null);
    setStage('sending');
    let res = await sendOrder(billingKey, s.loadDraft());
    for (const ms of again ? RESEND_DELAYS_MS : []) {
      if (res.ok || !lost(res.status)) break;
      await new Promise((r) => setTimeout(r, ms));
      res = await sendOrder(billingKey, s.loadDraft());
    }
    if (!res.ok && again && lost(res.status)) {
      // The card may have been charged: never "try again" with a new card, only this key (the marker stays pending).
      setStage('idle');
      setUnsure(billingKey);
      return;
    }
    if (!res.ok) {
      writeMarker(s, billingKey, null);
      setStage('idle');
      if (res.error.code === PAYMENT_DECLINED_CODE) {
        setDeclined(res.error.message);
        return;
      }
      const text = typeof m.sendFailed === 'function' ? m.sendFailed({ status: res.status, error: res.error }) : m.sendFailed;
      setFailure(res.error.message || text);
      if (text) alert(text);
      return;
    }
    writeMarker(s, billingKey, 'done');
    s.clearDraft();
    setPayment(('payment' in res.data ? (res.data.payment as PaymentView | null) : null) ?? null);
    setNotice(('message' in res.data ? (res.data.message as string | null) : null) ?? null);
    setStage('done');
  }, []);

  const complete = useCallback(async (billingKey: string) => {
    const s = latest.current.storage;
    if (readMarker(s, billingKey)) {
      setStage('done');
      return;
    }
    writeMarker(s, billingKey, 'pending');
    await deliver(billingKey);
  }, [deliver]);

  // The provider came back by redirect: fail loudly, or complete once.
  useEffect(() => {
    if (!ready || handled.current) return;
    const back = readBillingReturn(location.search);
    if (!back) return;
    handled.current = true;
    history.replaceState(null, '', withoutBillingReturn(location.href));
    if (billingFailed(back)) alert(latest.current.messages.providerFailed(back.message ?? back.code ?? ''));
    else void complete(back.billingKey!);
  }, [ready, complete]);

  /** Saves the draft and registers a card; an in-place provider answer completes here. */
  const start = useCallback(async (draft: D, issue: IssueRequest) => {
    const { storage: s, messages: m } = latest.current;
    setFailure(null);
    setDeclined(null);
    s.saveDraft(draft);
    try {
      const result = await issueBillingKey(issue);
      if (!result) return;
      if (billingFailed(result)) alert(m.providerFailed(result.message ?? result.code ?? ''));
      else await complete(result.billingKey!);
    } catch (err) {
      alert(m.callFailed(err instanceof Error ? err.message : String(err)));
    }
  }, [complete]);

  /** Another card for the order whose card was declined: the saved draft, a new card window. */
  const retry = useCallback(
    async (issue: IssueRequest) => {
      const draft = latest.current.storage.loadDraft();
      if (draft) await start(draft, issue);
    },
    [start],
  );

  /** 다시 시도 of an order whose answer was lost: the same billing key, so it is charged at most once. */
  const resume = useCallback(() => {
    if (unsure) void deliver(unsure);
  }, [unsure, deliver]);

  return { stage, failure, payment, declined, unsure: unsure !== null, notice, start, retry, resume };
}
