import { describe, expect, it } from 'vitest';
import { damageShare, FUEL_SHORTFALL_PER_PERCENT, settle, settlementAcknowledgement, settlementInputRefusal, settlementSummary, SETTLEMENT_ACK_WAIT_HOURS } from '../../../src/domain/settlement';

const base = { deposit: 0, overage: 0, overagePaid: 0, damages: [], deductible: 500_000, fuelShortfallPercent: 0 };

describe('return settlement rule', () => {
  it('the deposit covers everything: the rest of it is refunded', () => {
    const s = settle({ ...base, deposit: 1_000_000, overage: 140_000, damages: [{ description: '앞범퍼 긁힘', amount: 200_000 }], fuelShortfallPercent: 10 });
    expect(s.lines).toEqual([
      { kind: 'OVERAGE', label: '초과 주행 요금', amount: 140_000, detail: '140,000원' },
      { kind: 'DAMAGE', label: '손상: 앞범퍼 긁힘', amount: 200_000, detail: '수리 견적 200,000원' },
      { kind: 'FUEL', label: '연료·충전 부족', amount: 10 * FUEL_SHORTFALL_PER_PERCENT, detail: `10% × 1%당 ${FUEL_SHORTFALL_PER_PERCENT.toLocaleString('ko-KR')}원` },
    ]);
    expect(s.total).toBe(370_000);
    expect(s).toMatchObject({ deposit: 1_000_000, from_deposit: 370_000, to_charge: 0, to_refund: 630_000 });
    expect(s.summary).toBe('보증금 1,000,000원 − 정산 합계 370,000원 = 보증금 환불 630,000원');
  });

  it('the deposit falls short: the rest is charged to the card', () => {
    const s = settle({ ...base, deposit: 300_000, overage: 500_000 });
    expect(s).toMatchObject({ total: 500_000, from_deposit: 300_000, to_charge: 200_000, to_refund: 0 });
    expect(s.summary).toBe('정산 합계 500,000원 − 보증금 300,000원 = 카드 결제 200,000원');
  });

  it('no deposit: everything is charged; nothing owed: nothing moves', () => {
    expect(settle({ ...base, overage: 80_000 })).toMatchObject({ total: 80_000, from_deposit: 0, to_charge: 80_000, to_refund: 0, summary: '정산 합계 80,000원, 보증금 없음 → 카드 결제 80,000원' });
    expect(settle(base)).toMatchObject({ lines: [], total: 0, to_charge: 0, to_refund: 0, summary: '정산 합계 0원, 보증금 없음 → 추가 결제 없음' });
    expect(settlementSummary({ total: 500_000, deposit: 500_000, to_charge: 0, to_refund: 0 })).toBe('정산 합계 500,000원 = 보증금 500,000원 → 추가 결제·환불 없음');
  });

  it('each damage item is capped at the 자기부담금 on its own', () => {
    expect(damageShare(800_000, 500_000)).toBe(500_000);
    expect(damageShare(120_000, 500_000)).toBe(120_000);
    const s = settle({ ...base, damages: [{ description: '좌측 도어 찌그러짐', amount: 800_000 }, { description: '휠 긁힘', amount: 120_000 }] });
    expect(s.lines.map((l) => [l.amount, l.detail])).toEqual([[500_000, '수리 견적 800,000원 → 자기부담금 한도 500,000원'], [120_000, '수리 견적 120,000원']]);
    expect(s.total).toBe(620_000);
  });

  it('an overage already charged is not counted again', () => {
    const s = settle({ ...base, deposit: 500_000, overage: 140_000, overagePaid: 140_000 });
    expect(s.lines).toEqual([{ kind: 'OVERAGE', label: '초과 주행 요금', amount: 0, detail: '140,000원 − 이미 결제 140,000원' }]);
    expect(s).toMatchObject({ total: 0, to_refund: 500_000 });
  });

  it('refuses bad input in Korean', () => {
    expect(settlementInputRefusal({ damages: [], fuelShortfallPercent: 0 })).toBeNull();
    expect(settlementInputRefusal({ damages: [{ description: ' ', amount: 1 }], fuelShortfallPercent: 0 })?.field).toBe('damages');
    expect(settlementInputRefusal({ damages: [{ description: '긁힘', amount: 0 }], fuelShortfallPercent: 0 })?.message).toMatch(/손상 금액/);
    expect(settlementInputRefusal({ damages: [{ description: '긁힘', amount: 1.5 }], fuelShortfallPercent: 0 })?.field).toBe('damages');
    expect(settlementInputRefusal({ damages: [], fuelShortfallPercent: 101 })?.field).toBe('fuel_shortfall_percent');
    expect(settlementInputRefusal({ damages: [], fuelShortfallPercent: 2.5 })?.field).toBe('fuel_shortfall_percent');
  });
});

describe('settlementAcknowledgement (issue 49)', () => {
  const recordedAt = new Date('2035-02-20T00:00:00Z');
  it('waits 48 hours for the customer, then the record stands; none without a record', () => {
    expect(settlementAcknowledgement(null, recordedAt)).toEqual({ state: 'NONE', acknowledged_at: null, wait_until: null });
    expect(settlementAcknowledgement({ recordedAt, acknowledgedAt: null }, new Date('2035-02-21T23:59:59Z'))).toMatchObject({ state: 'WAITING', wait_until: '2035-02-22T00:00:00.000Z' });
    expect(settlementAcknowledgement({ recordedAt, acknowledgedAt: null }, new Date('2035-02-22T00:00:00Z')).state).toBe('TIMED_OUT');
    expect(settlementAcknowledgement({ recordedAt, acknowledgedAt: new Date('2035-02-20T03:00:00Z') }, recordedAt)).toMatchObject({ state: 'ACKNOWLEDGED', acknowledged_at: '2035-02-20T03:00:00.000Z' });
    expect(SETTLEMENT_ACK_WAIT_HOURS).toBe(48);
  });
});
