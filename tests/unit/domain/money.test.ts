import { describe, expect, it } from 'vitest';
import { formatWon, won } from '../../../src/domain/money';

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
});
