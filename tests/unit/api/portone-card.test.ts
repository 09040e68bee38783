import { describe, expect, it } from 'vitest';
import { portoneCard } from '../../../src/api/billing/portone-provider';

describe('portoneCard', () => {
  it('reads the issuer code, not the product name, and the masked number\'s last four', () => {
    expect(portoneCard({ status: 'ISSUED', methods: [{ card: { issuer: 'HYUNDAI_CARD', publisher: 'HYUNDAI_CARD', name: 'ZERO Edition2', number: '4330-28**-****-1234' } }] })).toEqual({ issuer: '현대카드', last4: '1234' });
    expect(portoneCard({ status: 'ISSUED', methods: [{ card: { publisher: 'CARD_COMPANY_SAMSUNG_CARD', number: '5365********0042' } }] })).toEqual({ issuer: '삼성카드', last4: '0042' });
    expect(portoneCard({ status: 'ISSUED', methods: [{ card: { issuer: 'XYZ', name: '신한카드 Deep Dream', number: '****' } }] })).toEqual({ issuer: '신한카드 Deep Dream', last4: null });
    expect(portoneCard({ status: 'ISSUED', methods: [{ card: { issuer: 'XYZ', name: 'Platinum', number: '1234-****-****-9876' } }] })).toEqual({ issuer: '', last4: '9876' });
    expect(portoneCard({ status: 'ISSUED', methods: [] })).toBeNull();
  });
});
