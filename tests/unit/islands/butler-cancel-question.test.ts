import { describe, expect, it } from 'vitest';
import { cancelQuestion } from '../../../src/islands/butler-lists/detail/CancelButton';

describe('the butler cancel dialog', () => {
  it('states the refund the server previewed (its policy and clock), not one reckoned from the browser clock', () => {
    const text = cancelQuestion({ paid_amount: 800_000, refund_amount: 400_000, refund_percent: 50, now: '2030-05-01T03:00:00.000Z' });
    expect(text).toContain('지금 취소하면 결제 금액 800,000원 중 400,000원(50%)을 환불합니다.');
    expect(text).toContain('[취소·환불 규정]');
  });
});
