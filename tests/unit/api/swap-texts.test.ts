import { describe, expect, it } from 'vitest';
import { FAQ_SEED, TERMS_SEED } from '../../../src/api/seed/content-data';
import { missingContractGlyphs } from '../../../src/domain/contract-font';
import { CONTRACT_ARTICLES } from '../../../src/domain/contract';
import { SWAP_RULE_LINES } from '../../../src/domain/swap';
import { SWAP_ANNEX_CONTINUES, swapAnnexDocument, swapAnnexFileName, type SwapAnnexInput } from '../../../src/domain/swap-annex';

describe('차량 교체 texts', () => {
  it('the FAQ and the terms (제5조의3) state the rule from its domain lines; contracts do not quote the article', () => {
    const faq = FAQ_SEED.find((f) => f.question === '구독 중에 다른 차로 바꿀 수 있나요?')!;
    const article = TERMS_SEED.content.split('제5조의3 (차량 교체)')[1].split('제6조')[0];
    for (const line of SWAP_RULE_LINES) {
      expect(faq.answer).toContain(line);
      expect(article).toContain(line);
    }
    expect(CONTRACT_ARTICLES.test('차량 교체')).toBe(false);
  });

  const input: SwapAnnexInput = {
    swapId: 7, ordinal: 1, requestId: 123, subscriptionId: 45, confirmedAt: new Date('2027-03-20T01:00:00Z'),
    company: { name: '주식회사 럭스모빌리티', ceo: '김대표', address: '서울특별시 강남구 도산대로 442', phone: '02-6952-0808', email: 'concierge@luxe-subscribe.kr', businessNumber: '123-45-67891', mailOrderNumber: '제2026-서울강남-01234호', hostingProvider: '예시 클라우드', privacyOfficer: { name: '이보호', email: 'privacy@luxe-subscribe.kr' } },
    customer: { name: '김고객', phone: '01012345678', email: 'c@example.com' },
    fromCar: { brand: 'Ferrari', model: 'Roma', subModel: null, trim: null, plate: '12가3456', colour: '흰색' },
    toCar: { brand: 'Porsche', model: 'Taycan', subModel: '4S', trim: null, plate: '12가3457', colour: '흰색' },
    term: { months: 12, startDate: '2027-01-10', endDate: '2028-01-09' },
    swap: { swapDate: '2027-03-28', billingMonth: 3, firstNewMonth: 4, newFeeFrom: '2027-04-10', oldFee: 1_200_000, newFee: 1_500_000, baseFee: 1_500_000, optionExtras: 0, prorateDays: 13, monthDays: 31, adjustment: 125_800 },
  };

  it('the annex names both cars, the day, the arithmetic, the new fee from which month and what continues, in the contract font', () => {
    const doc = swapAnnexDocument(input);
    const text = JSON.stringify(doc);
    for (const part of ['12가3456', '12가3457', '2027', '(월 1,500,000원 - 월 1,200,000원) × 13/31일 = 125,800원 추가 결제', '4개월 차', SWAP_ANNEX_CONTINUES]) expect(text).toContain(part);
    expect(swapAnnexFileName(123, 1)).toBe('LUXE-S-000123-C01.pdf');
    expect(missingContractGlyphs(JSON.stringify(doc.sections) + doc.title + doc.subtitle + doc.footer)).toEqual([]);
  });
});
