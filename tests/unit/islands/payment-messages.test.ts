import { describe, expect, it } from 'vitest';
import { chargedSentence, paymentCallFailed, paymentFailed, subscriptionCheckoutMessages } from '../../../src/islands/checkout/payment-messages';

describe('subscription checkout alerts (the spec\'s English in Korean)', () => {
  it('keeps a Korean provider message and drops an English one', () => {
    expect(paymentFailed('카드 등록을 취소했습니다.')).toBe('결제에 실패했습니다: 카드 등록을 취소했습니다.');
    expect(paymentFailed('User cancelled')).toBe('결제에 실패했습니다. 잠시 후 다시 시도해주세요.');
    expect(paymentCallFailed('본인인증 창을 불러오지 못했습니다.')).toBe('결제 요청 중 오류가 발생했습니다: 본인인증 창을 불러오지 못했습니다.');
    expect(paymentCallFailed('Failed to fetch dynamically imported module')).toBe('결제 요청 중 오류가 발생했습니다. 잠시 후 다시 시도해주세요.');
  });
  it('puts the page\'s own text for a failed order beside them', () => {
    const m = subscriptionCheckoutMessages('구독 신청에 실패했습니다. 잠시 후 다시 시도해주세요.');
    expect(m.sendFailed).toBe('구독 신청에 실패했습니다. 잠시 후 다시 시도해주세요.');
    expect(m.providerFailed('')).not.toMatch(/[A-Za-z]/);
    expect(m.callFailed('')).not.toMatch(/[A-Za-z]/);
  });
});

describe('the completion dialogs say what happened to the card', () => {
  it('charged, still being confirmed, or nothing due — never a bank transfer to wait for', () => {
    expect(chargedSentence({ status: 'PAID', amount: 1_250_000 })).toBe('등록하신 카드로 1,250,000원이 결제되었습니다.');
    expect(chargedSentence({ status: 'PENDING', amount: 700_000 })).toContain('카드사 확인');
    expect(chargedSentence(null)).toBe('결제할 금액이 없어 카드로 결제되지 않았습니다.');
    for (const s of [chargedSentence({ status: 'PAID', amount: 1 }), chargedSentence(null)]) expect(s).not.toContain('입금');
  });
});
