import { describe, expect, it } from 'vitest';
import { FAQ_SEED, TERMS_SEED } from '../../../src/api/seed/content-data';
import { formatNumber, won } from '../../../src/domain/money';
import { DEFAULT_MILEAGE_KM, DELIVERY_WINDOW_LABEL, PREPAYMENT_MAX_SHARE, PREPAYMENT_STEP, REGIONAL_DELIVERY_FEE } from '../../../src/domain/subscription-price';

const faq = (q: string) => FAQ_SEED.find((f) => f.question.startsWith(q))!.answer;

/** Issue 38: what the FAQ and the terms promise about options is what subscription-price.ts does. */
describe('the FAQ and the terms state the option rules the product applies', () => {
  it('탁송: 서울·경기 free, elsewhere the regional fee, the time windows', () => {
    for (const text of [faq('차량은 어디서'), TERMS_SEED.content]) {
      expect(text).toContain('서울·경기 지역 탁송은 무료');
      expect(text).toContain(`탁송비 ${won(REGIONAL_DELIVERY_FEE)}`);
    }
    for (const label of Object.values(DELIVERY_WINDOW_LABEL)) expect(faq('차량은 어디서')).toContain(label.replace(/^오[전후] /, ''));
  });
  it('mileage: the default plan, per-km overage in the contract', () => {
    expect(faq('주행거리')).toContain(`월 ${formatNumber(DEFAULT_MILEAGE_KM)}km가 기본`);
    expect(faq('주행거리')).toContain('km당 요금');
    expect(faq('주행거리')).toContain('계약서');
  });
  it('자기부담금 is per car and stated in the contract', () => {
    expect(faq('사고가')).toContain('자기부담금은 차량마다');
    expect(TERMS_SEED.content).toContain('자기부담금은 차량별 금액으로 계약서에 명시');
  });
  it('보증금 and 선납금: the step, the 50% cap, the spread over the months', () => {
    const text = faq('보증금과 선납금');
    expect(text).toContain(`${won(PREPAYMENT_STEP)} 단위`);
    expect(text).toContain(`${PREPAYMENT_MAX_SHARE * 100}%`);
    expect(text).toContain('구독 개월 수로 나눈 금액(원 미만 버림)');
    expect(TERMS_SEED.content).toContain('구독 개월 수로 나눈 금액(원 미만 버림)');
  });
});
