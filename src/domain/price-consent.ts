import { won } from './money';

/**
 * 가격 변경 동의: before an extension or a swap charges at a monthly fee other than the one the
 * customer pays now, they agree to the new fee explicitly (a checkbox with this text), and the API
 * takes `price_consent` = the quoted fee (docs/decisions/legal.md §4).
 */
export const priceConsentText = (newFee: number) => `변경된 월 구독료 ${won(newFee)}에 동의합니다`;

/** Why the confirmation is refused (Korean), or null: a changed fee needs a consent naming exactly it. */
export function priceConsentRefusal(currentFee: number, newFee: number, consent: number | undefined): string | null {
  if (newFee === currentFee || consent === newFee) return null;
  return consent === undefined ? `월 구독료가 ${won(currentFee)}에서 ${won(newFee)}으로 바뀝니다. 변경된 월 구독료에 동의해주세요.` : `동의한 월 구독료(${won(consent)})가 견적(${won(newFee)})과 다릅니다. 견적을 다시 확인한 뒤 동의해주세요.`;
}
