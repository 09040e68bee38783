import { describe, expect, it } from 'vitest';
import { FEE_TERMS, TAG_TEXT, availableDurations, brandSlug, carDisplayName, carFeatures, carHref, carSpecRows, carSpecs, defaultDuration, feeForTerm, garageLabels, homePriceText, homeTags, isAvailableByDate, isGarageActive, minimumFee, termPriceText, type FeeFields } from '../../../src/domain/car';
import { todayInKorea } from '../../../src/domain/dates';
import { formatWon } from '../../../src/domain/money';

const noFees = Object.fromEntries(FEE_TERMS.map((t) => [`subscription_fee_${t}`, null])) as FeeFields;
const fees = (given: Partial<FeeFields>): FeeFields => ({ ...noFees, ...given });

describe('fees for a term', () => {
  it('returns the fee of an offered term and null otherwise', () => {
    const car = fees({ subscription_fee_12: 3_000_000 });
    expect(feeForTerm(car, 12)).toBe(3_000_000);
    expect(feeForTerm(car, 24)).toBeNull();
  });
  it('returns null for a number that is not a term', () => {
    expect(feeForTerm(fees({ subscription_fee_12: 1 }), 13)).toBeNull();
  });
  it('treats a zero fee as offered', () => {
    expect(feeForTerm(fees({ subscription_fee_1: 0 }), 1)).toBe(0);
    expect(availableDurations(fees({ subscription_fee_1: 0 }))).toEqual([1]);
  });
  it('prices a term as "문의 필요" when not offered', () => {
    const car = fees({ subscription_fee_6: 1_234_567 });
    expect(termPriceText(car, 6)).toBe('1,234,567원/월');
    expect(termPriceText(car, 3)).toBe('문의 필요');
  });
  it('finds the lowest offered fee', () => {
    expect(minimumFee(fees({ subscription_fee_1: 5, subscription_fee_36: 3 }))).toBe(3);
    expect(minimumFee(noFees)).toBeNull();
  });
});

describe('available durations', () => {
  it('lists the terms with a fee, ascending, and defaults to the longest', () => {
    const car = fees({ subscription_fee_36: 1, subscription_fee_1: 3, subscription_fee_12: 2 });
    expect(availableDurations(car)).toEqual([1, 12, 36]);
    expect(defaultDuration(car)).toBe(36);
  });
  it('has no default when nothing is offered', () => {
    expect(availableDurations(noFees)).toEqual([]);
    expect(defaultDuration(noFees)).toBeNull();
  });
});

describe('home price text', () => {
  it('uses the 6-month fee first', () => {
    expect(homePriceText({ ...fees({ subscription_fee_6: 2_500_000, subscription_fee_12: 2_000_000 }), retail_price: 9 })).toBe('₩2,500,000/월');
  });
  it('falls back to 12, then 24 months, then the shortest offered term, before ever a purchase price', () => {
    expect(homePriceText({ ...fees({ subscription_fee_12: 2_000_000, subscription_fee_24: 1 }), retail_price: 9 })).toBe('₩2,000,000/월');
    expect(homePriceText({ ...fees({ subscription_fee_24: 1_800_000, subscription_fee_1: 5 }), retail_price: 9 })).toBe('₩1,800,000/월');
    // Issue 38: /car/6 has only 1- and 3-month fees; its purchase price was shown as a monthly fee.
    expect(homePriceText({ ...fees({ subscription_fee_1: 5_000_000, subscription_fee_3: 4_500_000 }), retail_price: 356_290_000 })).toBe('₩5,000,000/월');
    expect(homePriceText({ ...fees({ subscription_fee_36: 1_500_000, subscription_fee_48: 1_400_000 }), retail_price: 9 })).toBe('₩1,500,000/월');
  });
  it('never labels a purchase price /월', () => {
    expect(homePriceText({ ...noFees, retail_price: 310_000_000 })).toBe('차량가 ₩310,000,000');
  });
  it('says 문의 필요 when there is no fee and no retail price', () => {
    expect(homePriceText({ ...noFees, retail_price: null })).toBe('문의 필요');
  });
  it('formats won without decimals', () => {
    expect(formatWon(1234567.89)).toBe('1,234,567');
    expect(formatWon(0)).toBe('0');
  });
});

describe('tags and labels', () => {
  it('tags NEW, HOT and PROMOTED (a 6, 12 or 24-month fee)', () => {
    expect(homeTags({ is_new: true, is_hot: true, ...fees({ subscription_fee_24: 1 }) })).toEqual(['NEW', 'HOT', 'PROMOTED']);
    expect(homeTags({ is_new: false, is_hot: false, ...fees({ subscription_fee_1: 1, subscription_fee_36: 1 }) })).toEqual([]);
    expect(homeTags({ is_new: false, is_hot: true, ...fees({ subscription_fee_6: 1 }) })).toEqual(['HOT', 'PROMOTED']);
  });
  it('labels garage cards Promoted when hot and Sale when new', () => {
    expect(garageLabels({ is_hot: true, is_new: true })).toEqual(['Promoted', 'Sale']);
    expect(garageLabels({ is_hot: false, is_new: true })).toEqual(['Sale']);
    expect(garageLabels({ is_hot: false, is_new: false })).toEqual([]);
  });
  it('reads every tag and label in Korean (no Latin word on the badge)', () => {
    expect(TAG_TEXT).toEqual({ NEW: '신규', HOT: '인기', PROMOTED: '프로모션', Promoted: '프로모션', Sale: '세일' });
    for (const text of Object.values(TAG_TEXT)) expect(text).toMatch(/^[가-힣 ]+$/);
  });
});

describe('availability by date', () => {
  const today = '2026-11-21';
  it('is available without a start date or when the date is today or past', () => {
    expect(isAvailableByDate({ subscription_available_from: null }, today)).toBe(true);
    expect(isAvailableByDate({ subscription_available_from: '2026-11-21' }, today)).toBe(true);
    expect(isAvailableByDate({ subscription_available_from: '2026-01-01T00:00:00Z' }, today)).toBe(true);
  });
  it('is not available from a future date', () => {
    expect(isAvailableByDate({ subscription_available_from: '2026-11-22' }, today)).toBe(false);
  });
  it('is active in the garage only when subscriptable and available', () => {
    expect(isGarageActive({ is_subscriptable: true, subscription_available_from: null }, today)).toBe(true);
    expect(isGarageActive({ is_subscriptable: false, subscription_available_from: null }, today)).toBe(false);
    expect(isGarageActive({ is_subscriptable: true, subscription_available_from: '2027-01-01' }, today)).toBe(false);
  });
  it('reads today in Korea, not UTC', () => {
    expect(todayInKorea(new Date('2026-11-21T16:00:00Z'))).toBe('2026-11-22');
    expect(todayInKorea(new Date('2026-11-21T14:59:00Z'))).toBe('2026-11-21');
  });
});

describe('names, links and details', () => {
  const model = { id: 1, name: '911', image: null, brand: { id: 1, name: 'Porsche', image: null } };
  it('names a car by model plus sub model, else trim', () => {
    expect(carDisplayName({ model, sub_model: 'Turbo S', trim: 'Sport' })).toBe('911 Turbo S');
    expect(carDisplayName({ model, sub_model: null, trim: 'Sport' })).toBe('911 Sport');
    expect(carDisplayName({ model, sub_model: null, trim: null })).toBe('911');
  });
  it('links a card by id, or by its name as a slug', () => {
    expect(carHref({ id: 7, name: 'x' })).toBe('/car/7');
    expect(carHref({ name: 'Roma Spider V8' })).toBe('/car/roma-spider-v8');
  });
  it('maps brand names to garage slugs', () => {
    expect(brandSlug('Mercedes Benz')).toBe('mercedes');
    expect(brandSlug('Ferrari')).toBe('ferrari');
    expect(brandSlug('Aston Martin')).toBe('aston-martin');
  });
  it('fills specifications with fixed defaults except the engine', () => {
    expect(carSpecs({ sub_model: '4.0 V8' })).toEqual({ engine: '4.0 V8', fuel: '가솔린', transmission: '자동', drivetrain: 'AWD', seats: 5 });
    expect(carSpecRows({ sub_model: null })).toEqual([
      { label: '엔진', value: '-' },
      { label: '연료', value: '가솔린' },
      { label: '변속기', value: '자동' },
      { label: '구동 방식', value: 'AWD' },
      { label: '좌석', value: '5인승' },
    ]);
  });
  it('lists features with 기본 사양 (the spec\'s Standard Package) when there is no trim', () => {
    expect(carFeatures({ trim: null, color: 'Nero', mileage: 12000, license_plate: '123하 4567' })).toEqual([
      { label: '트림', value: '기본 사양' },
      { label: '색상', value: 'Nero' },
      { label: '주행거리', value: '12,000 km' },
      { label: '차량 번호', value: '123하 4567' },
    ]);
  });
});
