import { describe, expect, it } from 'vitest';
import { CONTRACT_ARTICLES, CONTRACT_DEFAULTS, ORDER_CONSENTS, contractDocument, orderConsents, requiredConsentsGiven, contractFileName, contractNumber, contractTime, hasContract, policyArticles, type ContractInput } from '../../../src/domain/contract';
import { CONTRACT_FONT_TEXT, missingContractGlyphs } from '../../../src/domain/contract-font';
import { TERMS_SEED } from '../../../src/api/seed/content-data';

const input: ContractInput = {
  requestId: 42,
  orderedAt: new Date('2026-11-26T23:30:00Z'),
  company: { name: '주식회사 럭스모빌리티', ceo: '김대표', address: '서울특별시 강남구 도산대로 442', phone: '02-6952-0808', email: 'concierge@luxe-subscribe.kr', businessNumber: '123-45-67891', mailOrderNumber: '제2026-서울강남-01234호', hostingProvider: '예시 클라우드', privacyOfficer: { name: '이보호', email: 'privacy@luxe-subscribe.kr' } },
  customer: { name: '김고객', phone: '01012345678', email: 'kim@example.com' },
  car: { brand: '포르쉐', model: '911', subModel: '카레라 S', trim: null, plate: '12가 3456', colour: '크레용' },
  term: 12,
  startDate: '2026-12-01',
  endDate: '2027-11-30',
  options: [],
  amounts: {
    first: { monthly: 4_690_000, coupon_discount: 519_000, points: 0, delivery_fee: 0, deposit: 0, prepayment: 0, paid_today: 4_171_000 },
    couponName: '웰컴',
    prepaymentCredit: 0,
    laterMonthFees: Array(11).fill(4_690_000),
  },
  ...CONTRACT_DEFAULTS,
  rules: { source: '서비스 이용약관 1.0', articles: policyArticles(TERMS_SEED.content, (t) => CONTRACT_ARTICLES.test(t)) },
  consents: orderConsents(false),
};
const lines = (doc: ReturnType<typeof contractDocument>, heading: string) => {
  const s = doc.sections.find((x) => x.heading.includes(heading));
  if (!s || s.kind !== 'lines') throw new Error(heading);
  return Object.fromEntries(s.lines.map((l) => [l.label, l.value]));
};

describe('contractDocument', () => {
  it('labels the monthly fee apart from the first payment, and totals the term', () => {
    const doc = contractDocument(input);
    expect(lines(doc, '요금')).toMatchObject({
      '월 구독료': '4,690,000원', '쿠폰 할인': '-519,000원 (웰컴) (첫 달)', '포인트 사용': '없음', '첫 결제 금액 (신청 시)': '4,171,000원',
      '첫 결제 내역': '첫 달 구독료 4,690,000원 - 쿠폰 할인 (웰컴) 519,000원 = 4,171,000원',
      보증금: '없음',
      '계약 기간 총 결제 금액': '55,761,000원 (첫 결제 4,171,000원 + 2개월 차부터 51,590,000원)',
    });
    expect(lines(doc, '요금')['2개월 차부터']).toContain('매월 4,690,000원 × 11회');
  });

  it('states one total with the first payment\'s 보증금 and 선납금 named and the later months less the 선납금 credit (issue 49)', () => {
    // 1,200,000원 a month, 선납금 6,000,000원 over 12 months (500,000원 a month), 보증금 500,000원, 탁송비 150,000원, 포인트 10,000원.
    const doc = contractDocument({
      ...input,
      amounts: {
        first: { monthly: 700_000, coupon_discount: 50_000, points: 10_000, delivery_fee: 150_000, deposit: 500_000, prepayment: 6_000_000, paid_today: 7_290_000 },
        couponName: '웰컴',
        prepaymentCredit: 500_000,
        laterMonthFees: Array(11).fill(700_000),
      },
    });
    const fee = lines(doc, '요금');
    expect(fee).toMatchObject({
      '월 구독료': '1,200,000원 (옵션 포함, 선납금 차감 전)',
      '선납금 차감': '매월 -500,000원 (선납금 6,000,000원 / 12개월, 1개월 차부터 12개월 차까지)',
      '첫 결제 금액 (신청 시)': '7,290,000원',
      '첫 결제 내역': '첫 달 구독료 (선납금 차감 후) 700,000원 - 쿠폰 할인 (웰컴) 50,000원 - 포인트 사용 10,000원 + 탁송비 150,000원 + 보증금 (반납 후 환급) 500,000원 + 선납금 6,000,000원 = 7,290,000원',
      보증금: '500,000원 (첫 결제에 포함, 반납 정산 후 남은 금액 환불)',
      '계약 기간 총 결제 금액': '14,990,000원 (첫 결제 7,290,000원 + 2개월 차부터 7,700,000원, 환불되는 보증금 500,000원 포함)',
    });
    expect(fee['2개월 차부터']).toContain('매월 700,000원 (월 구독료 1,200,000원 - 선납금 차감 500,000원) × 11회');
    // One total in the whole document.
    const all = doc.sections.flatMap((s) => (s.kind === 'lines' ? s.lines.map((l) => `${l.label} ${l.value}`) : s.paragraphs)).join('\n');
    expect(all.match(/총/g)).toHaveLength(1);
    // Every character prints in the contract font (no ÷ or − boxes).
    expect(missingContractGlyphs(JSON.stringify(doc))).toEqual([]);
  });

  it('names the car, the dates in Korean time, mileage, insurance and delivery', () => {
    const doc = contractDocument(input);
    expect(lines(doc, '차량')).toEqual({ 차량: '포르쉐 911 카레라 S', '차량 번호': '12가 3456', 색상: '크레용' });
    expect(lines(doc, '구독 기간')).toMatchObject({ 기간: '12개월', '시작일 (신청)': '2026.12.01', '종료일 (신청)': '2027.11.30' });
    expect(lines(doc, '주행거리')['약정 주행거리']).toBe('월 2,500km');
    expect(lines(doc, '보험')['자기부담금']).toBe('사고 1건당 차량별로 안내된 금액');
    expect(lines(doc, '인도')['인도 방법']).toContain('탁송');
    // 23:30 UTC is 08:30 the next day in Korea.
    expect(lines(doc, '동의')['동의 일시']).toBe('2026.11.27 08:30');
    expect(contractTime(input.orderedAt)).toBe('2026.11.27 08:30');
    expect(doc.subtitle).toContain('LUXE-S-000042');
    // Each consent as given: the six required, the car's 위치정보 refused (optional).
    const consentLines = doc.sections.find((s) => s.heading === '10. 동의')!;
    expect(consentLines.kind === 'lines' && consentLines.lines.slice(1).map((l) => `${l.label} ${l.value}`)).toEqual([
      '[필수] 동의 정기결제 동의', '[필수] 동의 자동차 구독 서비스 이용약관 동의', '[필수] 동의 반납 평가 기준 동의', '[선택] 동의하지 않음 위치정보 이용약관 동의',
      '[필수] 동의 전자금융거래 기본약관 동의', '[필수] 동의 개인신용정보 수집·이용 동의', '[필수] 동의 개인신용정보 제공 동의',
    ]);
  });

  it('the car\'s 위치정보 is the one consent the order can do without', () => {
    expect(requiredConsentsGiven(ORDER_CONSENTS.map((c) => c !== '위치정보 이용약관 동의'))).toBe(true);
    expect(requiredConsentsGiven(ORDER_CONSENTS.map((c) => c !== '개인신용정보 제공 동의'))).toBe(false);
    // An order from before it was optional gave all seven.
    expect(orderConsents(null).every((c) => c.given)).toBe(true);
  });

  it('lists the options as given, a fixed overage rate and 자기부담금 when known', () => {
    const doc = contractDocument({ ...input, options: [{ label: '주행거리 플랜', value: '월 4,000km' }], mileage: { monthlyKm: 4000, overagePerKm: 350 }, insurance: { cover: '종합보험', limits: [], deductible: 500_000 } });
    expect(lines(doc, '선택 옵션')).toEqual({ '주행거리 플랜': '월 4,000km' });
    expect(lines(doc, '주행거리')['초과 주행 요금']).toBe('초과 1km당 350원');
    expect(lines(doc, '보험')['자기부담금']).toMatch(/^사고 1건당 500,000원/);
    expect(lines(contractDocument(input), '선택 옵션')).toEqual({ 옵션: '선택한 옵션 없음' });
  });

  it('quotes the terms’ cancellation and termination articles word for word', () => {
    const articles = policyArticles(TERMS_SEED.content, (t) => CONTRACT_ARTICLES.test(t));
    expect(articles.map((a) => a.title)).toEqual(['제4조 (구독 신청과 계약 성립)', '제5조 (신청 취소와 해지)', '제6조 (요금과 결제)']);
    expect(articles[1].text).toContain('이미 결제한 달은 환불되지 않고 그 달이 끝날 때까지 차량을 이용할 수 있습니다.');
    expect(articles[2].text).not.toContain('제7조');
    const rules = contractDocument(input).sections.find((s) => s.heading.includes('취소와 해지'))!;
    expect(rules.kind === 'text' && rules.paragraphs).toContain('제5조 (신청 취소와 해지)');
  });

  it('names the company with its 대표자, 사업자등록번호 and 신고번호, phones formatted (issue 49)', () => {
    const parties = lines(contractDocument(input), '계약 당사자');
    expect(parties).toMatchObject({ 회사: '주식회사 럭스모빌리티', 대표자: '김대표', 사업자등록번호: '123-45-67891', '통신판매업 신고번호': '제2026-서울강남-01234호', '고객 휴대전화': '010-1234-5678' });
    expect(parties['회사 연락처']).toBe('02-6952-0808 · concierge@luxe-subscribe.kr');
    expect(lines(contractDocument({ ...input, company: { ...input.company, phone: '0269520808' } }), '계약 당사자')['회사 연락처']).toMatch(/^02-6952-0808 /);
  });

  it('prints the insurance limits: 대인 무한, 대물, 자기신체, 자기차량 with the 자기부담금', () => {
    const ins = lines(contractDocument({ ...input, insurance: { ...input.insurance, deductible: 500_000 } }), '보험');
    expect(ins['대인배상']).toContain('무한');
    expect(ins['대물배상']).toContain('2억원');
    expect(ins['자기신체사고']).toContain('1억원');
    expect(ins['자기차량손해']).toContain('차량가액');
    expect(ins['자기부담금']).toMatch(/^사고 1건당 500,000원/);
  });

  it('the handover prints each line under its own label (no "인도 방법: 인수 방법 탁송")', () => {
    const delivery = [{ label: '인수 방법', value: '탁송' }, { label: '탁송 주소', value: '서울 강남구 1' }];
    const doc = contractDocument({ ...input, delivery });
    expect(lines(doc, '8. 인도')).toEqual({ '인수 방법': '탁송', '탁송 주소': '서울 강남구 1' });
    expect(JSON.stringify(doc)).not.toContain('인수 방법 탁송');
  });

  it('a 계약 체결 block says who agreed, when and how; the footer says where the SHA-256 is shown', () => {
    const doc = contractDocument({ ...input, identityVerified: true });
    expect(lines(doc, '계약 체결')).toEqual({
      '고객 (동의자)': '김고객 (본인인증 완료)',
      '동의 방법': expect.stringContaining('전자적으로 동의'),
      '동의 일시': '2026.11.27 08:30',
      회사: '주식회사 럭스모빌리티 대표자 김대표 (전자 문서로 발행)',
    });
    expect(doc.footer).toContain('SHA-256 값은 마이페이지의 구독 신청 상세 화면');
    expect(missingContractGlyphs(JSON.stringify(doc))).toEqual([]);
  });

  it('is a function of its input only', () => {
    expect(contractDocument(input)).toEqual(contractDocument(structuredClone(input)));
    expect(contractFileName(7)).toBe('LUXE-S-000007.pdf');
    expect(contractNumber(1234567)).toBe('LUXE-S-1234567');
  });
});

describe('hasContract', () => {
  it('is true once the first month is paid (or refunded since), or nothing was to pay', () => {
    expect(hasContract({ final_fee: 100, payment: { status: 'PAID' } })).toBe(true);
    expect(hasContract({ final_fee: 100, payment: { status: 'CANCELLED' } })).toBe(true);
    expect(hasContract({ final_fee: 100, payment: { status: 'PENDING' } })).toBe(false);
    expect(hasContract({ final_fee: 100, payment: { status: 'FAILED' } })).toBe(false);
    expect(hasContract({ final_fee: 0, payment: null })).toBe(true);
  });
});

describe('the contract font’s characters', () => {
  it('hold ASCII, the symbols and the 2,350 KS X 1001 syllables; others are reported', () => {
    expect([...CONTRACT_FONT_TEXT].filter((c) => c >= '가' && c <= '힣')).toHaveLength(2350);
    expect(missingContractGlyphs('홍길동 ₩4,690,000 · 서울특별시 (탁송)')).toEqual([]);
    expect(missingContractGlyphs('김똠햏')).toEqual(['똠', '햏']);
  });
});
