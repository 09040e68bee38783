import { describe, expect, it } from 'vitest';
import { RETRY_DAYS, SUBSCRIPTION_BILLING_LINES } from '../../../src/domain/payments';
import { EARLY_EXIT_FEE_PERCENT, EARLY_EXIT_RULE_LINES } from '../../../src/domain/early-exit';
import { CONSENT_TEXTS } from '../../../src/islands/order/consent-texts';
import { FAQ_SEED, TERMS_SEED } from '../../../src/api/seed/content-data';

/**
 * The customer-facing texts (seeded FAQ and terms, the order page's consents) say what billing
 * does (SUBSCRIPTION_BILLING_LINES, README "Payments and billing (decisions)"): no 위약금, card
 * change and the owed month from my page, 해지 stops future charges and keeps the paid month.
 */
const CANCEL_RULE = '구독을 해지하면 이후 결제는 모두 중단되며, 이미 결제한 달은 환불되지 않고 그 달이 끝날 때까지 차량을 이용할 수 있습니다.';
const retryDays = RETRY_DAYS.map((d) => `${d}일`).join(', ');
const texts = () => [...FAQ_SEED.map((f) => f.answer), TERMS_SEED.content, ...CONSENT_TEXTS];

describe('billing texts agree with the billing rules', () => {
  it('the 해지 rule is stated as SUBSCRIPTION_BILLING_LINES states it (FAQ, terms, the recurring-payment consent)', () => {
    expect(SUBSCRIPTION_BILLING_LINES).toContain(CANCEL_RULE);
    const faq = FAQ_SEED.find((f) => f.category === '해지')!;
    expect(faq.answer).toContain(CANCEL_RULE);
    expect(TERMS_SEED.content).toContain(CANCEL_RULE);
    expect(CONSENT_TEXTS[0]).toContain(CANCEL_RULE);
  });

  it('the 중도 해지 rule is stated from its domain lines (FAQ, terms) and no text sends it to the chat', () => {
    const faq = FAQ_SEED.find((f) => f.category === '해지')!;
    for (const line of EARLY_EXIT_RULE_LINES) {
      expect(faq.answer).toContain(line);
      expect(TERMS_SEED.content).toContain(line);
    }
    expect(EARLY_EXIT_RULE_LINES[0]).toContain(`× ${EARLY_EXIT_FEE_PERCENT}%`);
    expect(CONSENT_TEXTS.join('')).toContain(`월 구독료 × ${EARLY_EXIT_FEE_PERCENT}%`);
    for (const text of texts()) expect(text).not.toMatch(/해지하기\(고객센터 채팅\)|상담 채널로 연결/);
  });

  it('no text charges a 위약금 or sends card changes and payment history to 고객센터', () => {
    for (const text of texts()) {
      expect(text).not.toContain('위약금');
      expect(text).not.toMatch(/카드의? 변경은 고객센터/);
      expect(text).not.toMatch(/고객센터를 통해 결제 내역/);
    }
  });

  it('the first month is charged at the request, retries follow RETRY_DAYS, and the card is changed on my page', () => {
    for (const text of [CONSENT_TEXTS[0], TERMS_SEED.content, FAQ_SEED.find((f) => f.question.startsWith('결제는'))!.answer]) {
      expect(text).toContain(`${retryDays} 뒤에 다시 결제를 시도`);
      expect(text).toMatch(/마이페이지에서 (결제 )?카드를 바꿔/);
      expect(text).not.toMatch(/첫 결제는 (차량 인도일|.*확정한 날)/);
    }
    expect(CONSENT_TEXTS[0]).toContain('구독을 신청할 때 결제됩니다');
    expect(CONSENT_TEXTS[0]).not.toContain('3영업일');
  });
});
