import { parseWon, won } from '../../domain/money';

export type RefundAmount = { ok: true; amount: number } | { ok: false; message: string };

/**
 * The console's refund box read exactly (src/domain/money.ts parseWon): empty is everything left;
 * "500000", "500,000", "50만", "50만원" are that many won; anything it cannot read exactly
 * ("오십만원", "50.5", "5O만") is refused with a Korean message, never guessed, and so is 0 or more
 * than is left.
 */
export function readRefundAmount(text: string, left: number): RefundAmount {
  if (!text.trim()) return { ok: true, amount: left };
  const amount = parseWon(text);
  if (amount === null) return { ok: false, message: `환불 금액 "${text.trim()}"을(를) 읽을 수 없습니다. 숫자로 입력해주세요 (예: 500000, 500,000, 50만원).` };
  if (amount < 1) return { ok: false, message: '환불 금액은 1원 이상이어야 합니다.' };
  if (amount > left) return { ok: false, message: `환불 금액 ${won(amount)}이 환불 가능 금액(${won(left)})을 넘습니다.` };
  return { ok: true, amount };
}

/** The confirm question: the exact amount and what stays paid. */
export function refundQuestion(paymentId: string, amount: number, left: number): string {
  const rest = left - amount;
  return `${paymentId}에서 ${won(amount)}을 환불합니다${rest > 0 ? ` (환불 후 남는 결제 금액 ${won(rest)})` : ' (남은 금액 전액)'}. 환불할까요?`;
}
