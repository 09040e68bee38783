/**
 * The card a billing key charges, as customers know it (issue 49): the issuer and the last four
 * digits, as every Korean checkout shows them. Pages show this, never the billing key.
 */
export interface CardView {
  /** The issuer as the provider names it (현대카드); null when it does not say. */
  issuer: string | null;
  /** The card number's last four digits; null when the provider's masked number hides them. */
  last4: string | null;
}

/** The fallback when the card is unknown (a key from before issue 49, or a provider that does not say). */
export const UNKNOWN_CARD_LABEL = '등록된 카드';

/** "현대카드 ···· 1234"; "현대카드" without digits; "카드 ···· 1234" without an issuer; else "등록된 카드". */
export function cardLabel(card: CardView | null | undefined): string {
  const issuer = card?.issuer?.trim() || null;
  const last4 = card?.last4 && /^\d{4}$/.test(card.last4) ? card.last4 : null;
  if (issuer && last4) return `${issuer} ···· ${last4}`;
  if (issuer) return issuer;
  if (last4) return `카드 ···· ${last4}`;
  return UNKNOWN_CARD_LABEL;
}

/** A row's stored card (card_issuer, card_last4) as a view; null when neither is known. */
export function cardViewOf(row: { cardIssuer: string | null; cardLast4: string | null }): CardView | null {
  return row.cardIssuer || row.cardLast4 ? { issuer: row.cardIssuer || null, last4: row.cardLast4 || null } : null;
}
