import { describe, expect, it } from 'vitest';
import { FUEL_SHORTFALL_PER_PERCENT, SETTLEMENT_RULE_LINES } from '../../../src/domain/settlement';
import { won } from '../../../src/domain/money';
import { PREPAYMENT_REFUND_LINE } from '../../../src/domain/prepayment';
import { FAQ_SEED, TERMS_SEED } from '../../../src/api/seed/content-data';
import { CONSENT_TEXTS } from '../../../src/islands/order/consent-texts';

/** The seeded FAQ, the terms and the 반납 평가 기준 consent state the settlement rule as src/domain/settlement.ts computes it. */
describe('settlement texts agree with the rule', () => {
  it('the FAQ’s 보증금 answer and the terms’ 제6조의2 carry every rule line; 제5조 refers to it', () => {
    const faq = FAQ_SEED.find((f) => f.question.includes('보증금'))!;
    const article = TERMS_SEED.content.split('제6조의2')[1].split('제7조')[0];
    for (const line of SETTLEMENT_RULE_LINES) {
      expect(faq.answer).toContain(line);
      expect(article).toContain(line);
    }
    expect(TERMS_SEED.content).toContain('보증금은 차량 반납 후 반납 정산 금액(초과 주행 요금, 손상 수리비, 연료·충전 부족분)을 먼저 차감하고 남은 금액을 환불');
  });

  it('the unused 선납금: the terms’ 제5조 4, the settlement rule, and both FAQ answers say the rule the settlement computes', () => {
    const article5 = TERMS_SEED.content.split('제5조 (')[1].split('제5조의2')[0];
    expect(article5).toContain(`4. 보증금은`);
    expect(article5).toContain(PREPAYMENT_REFUND_LINE);
    expect(SETTLEMENT_RULE_LINES).toContain(PREPAYMENT_REFUND_LINE);
    expect(FAQ_SEED.find((f) => f.question.includes('중도에 해지'))!.answer).toContain(PREPAYMENT_REFUND_LINE);
    // The old promise ("월 차감액의 합계") is gone: the refund is the share of the 선납금, rounded down to 10 won.
    expect(TERMS_SEED.content).not.toContain('월 차감액의 합계');
    expect(PREPAYMENT_REFUND_LINE).toContain('선납금 × 미사용 개월 수 / 계약 개월 수, 10원 미만 버림');
  });

  it('the 반납 평가 기준 names the deductible cap, the fuel rate and the deposit first', () => {
    const consent = CONSENT_TEXTS.find((t) => t.includes('반납 평가'))!;
    expect(consent).toContain('손상 1건당 계약서의 자기부담금을 넘지 않습니다');
    expect(consent).toContain(`1%당 ${won(FUEL_SHORTFALL_PER_PERCENT)}`);
    expect(consent).toContain('보증금에서 먼저 차감');
    expect(consent).toContain('사용하지 않은 개월분의 선납금은 정산에서 환급');
  });
});
