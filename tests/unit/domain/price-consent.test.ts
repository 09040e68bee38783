import { describe, expect, it } from 'vitest';
import { priceConsentRefusal, priceConsentText } from '../../../src/domain/price-consent';

describe('가격 변경 동의', () => {
  it('names the new fee in the checkbox text', () => {
    expect(priceConsentText(1_234_000)).toBe('변경된 월 구독료 1,234,000원에 동의합니다');
  });
  it('needs a consent naming exactly the new fee only when the fee changes', () => {
    expect(priceConsentRefusal(1_000_000, 1_000_000, undefined)).toBeNull();
    expect(priceConsentRefusal(1_000_000, 1_200_000, 1_200_000)).toBeNull();
    expect(priceConsentRefusal(1_000_000, 1_200_000, undefined)).toBe('월 구독료가 1,000,000원에서 1,200,000원으로 바뀝니다. 변경된 월 구독료에 동의해주세요.');
    expect(priceConsentRefusal(1_000_000, 1_200_000, 1_100_000)).toBe('동의한 월 구독료(1,100,000원)가 견적(1,200,000원)과 다릅니다. 견적을 다시 확인한 뒤 동의해주세요.');
  });
});
