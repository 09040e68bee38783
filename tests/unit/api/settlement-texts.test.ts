import { describe, expect, it } from 'vitest';
import { FUEL_SHORTFALL_PER_PERCENT, SETTLEMENT_RULE_LINES } from '../../../src/domain/settlement';
import { won } from '../../../src/domain/money';
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

  it('the 반납 평가 기준 names the deductible cap, the fuel rate and the deposit first', () => {
    const consent = CONSENT_TEXTS.find((t) => t.includes('반납 평가'))!;
    expect(consent).toContain('손상 1건당 계약서의 자기부담금을 넘지 않습니다');
    expect(consent).toContain(`1%당 ${won(FUEL_SHORTFALL_PER_PERCENT)}`);
    expect(consent).toContain('보증금에서 먼저 차감');
  });
});
