import { describe, expect, it } from 'vitest';
import { requestCancelQuestion, requestStateText } from '../../../src/domain/orders';

describe('a subscription request as the customer reads it', () => {
  it('names a declined first charge as never received, a cancel as 취소', () => {
    expect(requestStateText({ status: 'CANCELLED', payment: { status: 'FAILED' } })).toBe('결제 실패 (접수되지 않음)');
    expect(requestStateText({ status: 'CANCELLED', payment: { status: 'CANCELLED' } })).toBe('취소');
    expect(requestStateText({ status: 'PENDING', payment: { status: 'PAID' } })).toBe('접수');
    expect(requestStateText({ status: 'CONFIRMED', payment: null })).toBe('확정');
  });

  it('asks before cancelling with the amount that comes back', () => {
    expect(requestCancelQuestion({ payment: { status: 'PAID', amount: 12_340_000 }, point_used: 30_000 })).toBe(
      '구독 신청을 취소하시겠습니까? 결제한 12,340,000원 전액을 환불하고 포인트 30,000 P와 쿠폰을 돌려드립니다. 취소 후에는 되돌릴 수 없습니다.',
    );
    expect(requestCancelQuestion({ payment: null, point_used: 0 })).toBe('구독 신청을 취소하시겠습니까? 쿠폰을 사용했다면 돌려드립니다. 취소 후에는 되돌릴 수 없습니다.');
  });
});
