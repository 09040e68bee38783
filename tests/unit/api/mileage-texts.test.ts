import { describe, expect, it } from 'vitest';
import { MILEAGE_RULE_LINES } from '../../../src/domain/mileage';
import { FAQ_SEED, TERMS_SEED } from '../../../src/api/seed/content-data';

/** The seeded FAQ and terms state the mileage rule as src/domain/mileage.ts computes it (docs/decisions/mileage.md). */
describe('mileage texts agree with the rule', () => {
  it('the FAQ’s 주행거리 answer and the terms’ 제6조의2 carry every rule line', () => {
    const faq = FAQ_SEED.find((f) => f.question.includes('주행거리'))!;
    const article = TERMS_SEED.content.split('제6조의2')[1].split('제7조')[0];
    for (const line of MILEAGE_RULE_LINES) {
      expect(faq.answer).toContain(line);
      expect(article).toContain(line);
    }
    expect(faq.answer).toContain('월 2,500km가 기본');
  });
});
