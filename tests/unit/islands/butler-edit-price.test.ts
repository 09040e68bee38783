import { describe, expect, it } from 'vitest';
import { differenceLine, editPayerOf, editPrice, priceChangeQuestion, priceChanges } from '../../../src/islands/butler-lists/detail/edit-price';

const car = { butler_fee: 700_000, butler_overtime_fee: null };
const day = '2026-12-03';
const at = (time: string) => `${day}T${time}:00+09:00`;

describe('butler edit price', () => {
  it('charges the difference of a longer trip, coupon recomputed on the total with overtime', () => {
    const p = editPrice(car, at('09:00'), at('20:00'), { discount_type: 'PERCENTAGE', discount_rate: 10, discount: null }, 0, 630_000);
    expect(p.quote).toMatchObject({ overtimeHours: 3, overtimeFee: 210_000, couponDiscount: 91_000, final: 819_000 });
    expect(p).toMatchObject({ current: 630_000, difference: 189_000, pointsBack: 0 });
    expect(priceChanges(p)).toBe(true);
    expect(differenceLine(p)).toBe('차액 189,000원을 등록된 카드로 추가 결제합니다.');
    expect(priceChangeQuestion(p)).toBe('결제 금액이 630,000원에서 819,000원으로 바뀝니다.\n차액 189,000원을 등록된 카드로 추가 결제합니다.\n\n변경 내용을 저장하시겠습니까?');
  });

  it('refunds the difference of a shorter trip', () => {
    const p = editPrice(car, at('09:00'), at('17:00'), null, 50_000, 790_000);
    expect(p).toMatchObject({ difference: -140_000, pointsBack: 0 });
    expect(differenceLine(p)).toBe('차액 140,000원을 결제한 카드로 환불합니다.');
  });

  it('keeps the points to the largest 10,000 step within the new price and gives the rest back', () => {
    const p = editPrice(car, at('08:00'), at('16:00'), null, 980_000, 0);
    expect(p.quote).toMatchObject({ points: 700_000, final: 0 });
    expect(p).toMatchObject({ difference: 0, pointsBack: 280_000 });
    expect(priceChanges(p)).toBe(true);
    expect(priceChangeQuestion(p)).toContain('사용한 포인트 중 280,000P는 포인트로 돌려드립니다.');
    expect(differenceLine(p)).toBe('결제 금액은 그대로입니다.');
  });

  it('an edit that keeps the price changes nothing to confirm', () => {
    const p = editPrice(car, at('10:00'), at('18:00'), { discount_type: 'FIXED', discount_rate: null, discount: 50_000 }, 0, 650_000);
    expect(p.difference).toBe(0);
    expect(priceChanges(p)).toBe(false);
  });

  it('a company trip says where the company pays and splits the new price into 공급가액 and 부가세', () => {
    const booking = (billing: 'CARD' | 'INVOICE', approval_status: 'WAITING' | 'APPROVED' | null) => ({
      company_booking: { company_id: 1, company_name: '주식회사 테스트', booker_name: '홍길동', guest_name: null, guest_phone: null, cost_centre: null, billing, approval_status, approval_reason: null },
    });
    expect(editPayerOf({ company_booking: null })).toBe('own');
    expect(editPayerOf(booking('CARD', null))).toBe('company-card');
    expect(editPayerOf(booking('INVOICE', null))).toBe('invoice');
    expect(editPayerOf(booking('CARD', 'WAITING'))).toBe('waiting');
    const longer = editPrice(car, at('09:00'), at('20:00'), null, 0, 700_000);
    expect(longer.quote.final).toBe(910_000);
    expect(differenceLine(longer, 'company-card')).toBe('차액 210,000원을 회사 법인카드로 추가 결제합니다.');
    expect(differenceLine(longer, 'invoice')).toBe('변경된 금액 910,000원이 회사 월 청구서에 청구됩니다. 카드로 결제되는 금액은 없습니다.');
    expect(differenceLine(longer, 'waiting')).toBe('승인 전이라 결제된 금액이 없습니다. 승인되면 변경된 금액으로 결제됩니다.');
    expect(priceChangeQuestion(longer, 'invoice').split('\n').slice(0, 2)).toEqual(['결제 금액이 700,000원에서 910,000원으로 바뀝니다.', '(공급가액 827,273원 · 부가세 82,727원)']);
    expect(differenceLine(editPrice(car, at('09:00'), at('17:00'), null, 0, 910_000), 'company-card')).toBe('차액 210,000원을 회사 법인카드로 환불합니다.');
  });
});
