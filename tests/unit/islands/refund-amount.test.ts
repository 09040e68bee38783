import { describe, expect, it } from 'vitest';
import { parseWon } from '../../../src/domain/money';
import { readRefundAmount, refundQuestion } from '../../../src/islands/admin/refund-amount';

describe('parseWon: a typed amount read exactly or not at all', () => {
  it('reads digits, thousands separators, Korean units after digits and 원', () => {
    expect(parseWon('500000')).toBe(500_000);
    expect(parseWon('500,000')).toBe(500_000);
    expect(parseWon('500,000원')).toBe(500_000);
    expect(parseWon('50만')).toBe(500_000);
    expect(parseWon('50만원')).toBe(500_000);
    expect(parseWon(' 50 만 원 ')).toBe(500_000);
    expect(parseWon('5만 5천원')).toBe(55_000);
    expect(parseWon('1억 2,000만')).toBe(120_000_000);
    expect(parseWon('55만 4000')).toBe(554_000);
  });

  it('refuses what it cannot read exactly: number words, decimals, signs, letters, bad groups, units out of order', () => {
    for (const text of ['오십만원', '오십만', '만원', '50.5', '-1000', '+1000', '5O만', '5,00', '50,,000', '1천 2만', '500 50만', 'abc', '', '원', '1e6', '0x10']) {
      expect(parseWon(text), text).toBeNull();
    }
  });
});

describe('the console refund box', () => {
  it('empty is everything left; the exact amount otherwise', () => {
    expect(readRefundAmount('', 5_540_000)).toEqual({ ok: true, amount: 5_540_000 });
    expect(readRefundAmount('50만', 5_540_000)).toEqual({ ok: true, amount: 500_000 });
    expect(readRefundAmount('500,000', 5_540_000)).toEqual({ ok: true, amount: 500_000 });
  });

  it('"오십만원" is refused (it once refunded 5,540,000원 in full), and so are 0 and more than is left', () => {
    const words = readRefundAmount('오십만원', 5_540_000);
    expect(words).toMatchObject({ ok: false });
    expect(!words.ok && words.message).toMatch(/읽을 수 없습니다/);
    expect(readRefundAmount('0', 100)).toMatchObject({ ok: false, message: expect.stringMatching(/1원 이상/) });
    expect(readRefundAmount('101', 100)).toMatchObject({ ok: false, message: expect.stringMatching(/100원/) });
  });

  it('the confirm question names the exact amount and what stays paid', () => {
    expect(refundQuestion('sub-1-m2', 500_000, 5_540_000)).toBe('sub-1-m2에서 500,000원을 환불합니다 (환불 후 남는 결제 금액 5,040,000원). 환불할까요?');
    expect(refundQuestion('sub-1-m2', 5_540_000, 5_540_000)).toMatch(/5,540,000원을 환불합니다 \(남은 금액 전액\)/);
  });
});
