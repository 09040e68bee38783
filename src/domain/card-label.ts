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

/**
 * PortOne's card company codes (발급사·발행사 코드: the browser SDK's CardCompany, sent bare or as
 * CARD_COMPANY_x) and the names Korean checkouts show for them.
 */
const CARD_ISSUER_NAMES: Readonly<Record<string, string>> = {
  KOREA_DEVELOPMENT_BANK: 'KDB산업은행카드',
  KFCC: '새마을금고카드',
  SHINHYUP: '신협카드',
  EPOST: '우체국카드',
  SAVINGS_BANK_KOREA: '저축은행카드',
  KAKAO_BANK: '카카오뱅크카드',
  WOORI_CARD: '우리카드',
  BC_CARD: 'BC카드',
  GWANGJU_CARD: '광주카드',
  SAMSUNG_CARD: '삼성카드',
  SHINHAN_CARD: '신한카드',
  HYUNDAI_CARD: '현대카드',
  LOTTE_CARD: '롯데카드',
  SUHYUP_CARD: '수협카드',
  CITI_CARD: '씨티카드',
  NH_CARD: 'NH농협카드',
  JEONBUK_CARD: '전북카드',
  JEJU_CARD: '제주카드',
  HANA_CARD: '하나카드',
  KOOKMIN_CARD: 'KB국민카드',
  K_BANK: '케이뱅크카드',
  TOSS_BANK: '토스뱅크카드',
  MIRAE_ASSET_SECURITIES: '미래에셋증권카드',
};

/**
 * The issuer as customers know it: a PortOne code named in Korean (HYUNDAI_CARD → 현대카드); an
 * unknown code (upper-case letters and underscores) is no name; a name already written (현대카드)
 * stays. null when there is nothing to show.
 */
export function cardIssuerName(issuer: string | null | undefined): string | null {
  const s = issuer?.trim();
  if (!s) return null;
  const code = s.toUpperCase().replace(/^CARD_COMPANY_/, '');
  if (CARD_ISSUER_NAMES[code]) return CARD_ISSUER_NAMES[code];
  return /^[A-Z0-9_]+$/.test(s) ? null : s;
}

/** The fallback when the card is unknown (a key from before issue 49, or a provider that does not say). */
const UNKNOWN_CARD_LABEL = '등록된 카드';

/** "현대카드 ···· 1234"; "현대카드" without digits; "카드 ···· 1234" without an issuer; else "등록된 카드". */
export function cardLabel(card: CardView | null | undefined): string {
  const issuer = cardIssuerName(card?.issuer);
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
