import { describe, expect, it } from 'vitest';
import { cardIssuerName, cardLabel, cardViewOf } from '../../../src/domain/card-label';

describe('cardLabel', () => {
  it('shows the issuer and the last four digits', () => {
    expect(cardLabel({ issuer: '현대카드', last4: '1234' })).toBe('현대카드 ···· 1234');
  });
  it('falls back when a part is unknown', () => {
    expect(cardLabel({ issuer: '현대카드', last4: null })).toBe('현대카드');
    expect(cardLabel({ issuer: null, last4: '0042' })).toBe('카드 ···· 0042');
    expect(cardLabel({ issuer: '  ', last4: 'ab12' })).toBe('등록된 카드');
    expect(cardLabel(null)).toBe('등록된 카드');
    expect(cardLabel(undefined)).toBe('등록된 카드');
  });
  it('reads a row: null when nothing is stored', () => {
    expect(cardViewOf({ cardIssuer: '신한카드', cardLast4: '9876' })).toEqual({ issuer: '신한카드', last4: '9876' });
    expect(cardViewOf({ cardIssuer: null, cardLast4: null })).toBeNull();
  });

  it('names PortOne issuer codes in Korean, bare or prefixed; an unknown code is no name', () => {
    expect(cardIssuerName('HYUNDAI_CARD')).toBe('현대카드');
    expect(cardIssuerName('CARD_COMPANY_KOOKMIN_CARD')).toBe('KB국민카드');
    expect(cardIssuerName('SOME_NEW_CARD')).toBeNull();
    expect(cardIssuerName('신한카드')).toBe('신한카드');
    // A row stored before the names: the label names the code too.
    expect(cardLabel({ issuer: 'SHINHAN_CARD', last4: '1234' })).toBe('신한카드 ···· 1234');
    expect(cardLabel({ issuer: 'UNKNOWN_CO', last4: '1234' })).toBe('카드 ···· 1234');
  });
});

