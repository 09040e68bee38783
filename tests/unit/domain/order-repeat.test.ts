import { describe, expect, it } from 'vitest';
import { repeatedOrderMessage } from '../../../src/domain/order-repeat';

describe('repeatedOrderMessage', () => {
  it('says a paid order was paid, and a pending one is being confirmed: never to pay again', () => {
    expect(repeatedOrderMessage('SUBSCRIBE', 'PAID')).toBe('이미 결제된 구독 신청입니다. 다시 결제하지 않으셔도 됩니다.');
    expect(repeatedOrderMessage('BUTLER', 'PAID')).toBe('이미 결제된 의전 예약입니다. 다시 결제하지 않으셔도 됩니다.');
    expect(repeatedOrderMessage('SUBSCRIBE', 'PENDING')).toMatch(/^결제 확인 중인 구독 신청입니다\. .*다시 결제하지 마세요\.$/);
  });

  it('an order with nothing to pay, or one refunded since, is named as received', () => {
    expect(repeatedOrderMessage('SUBSCRIBE', null)).toBe('이미 접수된 구독 신청입니다. 결제할 금액이 없어 카드로 결제되지 않았습니다.');
    expect(repeatedOrderMessage('SUBSCRIBE', 'CANCELLED')).toBe('이미 접수된 구독 신청입니다. 결제 내역에서 결제 상태를 확인해주세요.');
  });
});
