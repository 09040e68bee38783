import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../../client/api';
import { billingFailed, issueBillingKey, readBillingReturn, withoutBillingReturn, type IssueRequest } from '../../client/billing';
import { readMarker, writeMarker, type CheckoutStorage } from './checkoutStorage';

/** The texts a checkout shows at each failure (each service keeps its spec's wording). */
export interface CheckoutMessages {
  /** Alert when the provider returns a failure code; gets the provider's message. */
  providerFailed: (message: string) => string;
  /** Alert when the order could not be created after the card was registered. */
  sendFailed: string;
  /** Alert when the provider could not be called at all (SDK not loaded, …). */
  callFailed: (message: string) => string;
}

export type CheckoutStage = 'idle' | 'sending' | 'done';

interface Options<D> {
  storage: CheckoutStorage<D>;
  /** Creates the order with the billing key and the saved draft (null if it was lost). */
  send: (billingKey: string, draft: D | null) => Promise<ApiResult<unknown>>;
  messages: CheckoutMessages;
  /** Whether a return found in the URL belongs to this page now (e.g. its ids are known). */
  ready?: boolean;
}

/**
 * The billing-return protocol of both checkouts: save the draft, launch the provider, and on
 * its return (redirect query or in-place answer) send the order exactly once per billing key;
 * a key this tab already sent shows the completion directly.
 */
export function useBillingCheckout<D>({ storage, send, messages, ready = true }: Options<D>) {
  const [stage, setStage] = useState<CheckoutStage>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const handled = useRef(false);
  const latest = useRef({ storage, send, messages });
  latest.current = { storage, send, messages };

  const complete = useCallback(async (billingKey: string) => {
    const { storage: s, send: sendOrder, messages: m } = latest.current;
    if (readMarker(s, billingKey)) {
      setStage('done');
      return;
    }
    writeMarker(s, billingKey, 'pending');
    setStage('sending');
    const res = await sendOrder(billingKey, s.loadDraft());
    if (!res.ok) {
      writeMarker(s, billingKey, null);
      setStage('idle');
      setFailure(res.error.message || m.sendFailed);
      alert(m.sendFailed);
      return;
    }
    writeMarker(s, billingKey, 'done');
    s.clearDraft();
    setStage('done');
  }, []);

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

  return { stage, failure, start };
}
