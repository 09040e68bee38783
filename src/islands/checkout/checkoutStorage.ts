/**
 * Session storage of a checkout that leaves for the card provider and comes back: the draft
 * (what the user chose) survives the redirect; a per-billing-key marker makes the return
 * send the order exactly once per tab.
 */
export interface CheckoutStorage<D> {
  saveDraft(draft: D): void;
  /** The saved draft, or null when there is none or it is unreadable. */
  loadDraft(): D | null;
  clearDraft(): void;
  /** Storage key of the marker for one billing key. */
  markerKey(billingKey: string): string;
}

/** sessionStorage, or null where it is missing or blocked (private mode, server render). */
export function session(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** A draft kept as JSON under `${prefix}Draft`, markers under `${prefix}Submitted:{billingKey}`. */
export function jsonCheckoutStorage<D>(prefix: string): CheckoutStorage<D> {
  const key = `${prefix}Draft`;
  return {
    saveDraft: (draft) => session()?.setItem(key, JSON.stringify(draft)),
    loadDraft: () => {
      try {
        const raw = session()?.getItem(key);
        return raw ? (JSON.parse(raw) as D) : null;
      } catch {
        return null;
      }
    },
    clearDraft: () => session()?.removeItem(key),
    markerKey: (billingKey) => `${prefix}Submitted:${billingKey}`,
  };
}

/** The marker of a billing key: 'pending' while sending, 'done' after success. */
export function readMarker(storage: CheckoutStorage<unknown>, billingKey: string): string | null {
  return session()?.getItem(storage.markerKey(billingKey)) ?? null;
}

export function writeMarker(storage: CheckoutStorage<unknown>, billingKey: string, value: 'pending' | 'done' | null): void {
  const k = storage.markerKey(billingKey);
  if (value === null) session()?.removeItem(k);
  else session()?.setItem(k, value);
}
