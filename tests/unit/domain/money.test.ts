import { describe, expect, it } from 'vitest';
import { formatNumber, formatWon, won, wonSign } from '../../../src/domain/money';

describe('money', () => {
  it('formatWon: separators, no decimals', () => {
    expect(formatWon(1_250_000)).toBe('1,250,000');
    expect(formatWon(999.9)).toBe('999');
    expect(formatWon(0)).toBe('0');
  });

  it('won: the one money format, 555,000원 (never ₩)', () => {
    expect(won(555_000)).toBe('555,000원');
    expect(won(0)).toBe('0원');
    expect(won(1_234_567.8)).toBe('1,234,567원');
    expect(won(-30_000)).toBe('-30,000원');
    expect(won(12_000)).not.toContain('₩');
  });

  it('formatNumber groups any count the same way; wonSign is the home card\'s ₩ form', () => {
    expect(formatNumber(1_000)).toBe('1,000');
    expect(formatNumber(12_345.6)).toBe('12,345');
    expect(wonSign(8_200_000)).toBe('₩8,200,000');
    expect(wonSign(0)).toBe('₩0');
    expect(wonSign(8_200_000)).not.toContain('원');
  });
});
