import { describe, expect, it } from 'vitest';
import { cardLabel, cardViewOf } from '../../../src/domain/card-label';

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
});
