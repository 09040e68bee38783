import { describe, expect, it } from 'vitest';
import { prefillToSearch } from '../../../src/domain/butler-prefill';
import { ErrorCode } from '../../../src/domain/error-codes';
import { openingForm, parseSavedForm, prefillSource, sanitizeForm, type SavedForm } from '../../../src/islands/butler/form-draft';
import {
  clampPassengerInput, clampPointsInput, initialForm, isDayTaken, missingFields, overlayPrefill, PASSENGER_NOTES, pointsNote, type ReservationForm,
} from '../../../src/islands/butler/reservation-form';

const TODAY = '2026-11-01';

/** A form with every field typed, as a user would leave it. */
const typed: ReservationForm = {
  carId: 3,
  start: '2026-12-03T10:00',
  end: '2026-12-03T20:30',
  startLocation: '서울 강남구 테헤란로 152',
  endLocation: '인천 중구 공항로 272',
  waypoints: [{ key: 2, address: '서울 중구 세종대로 110', time: '2026-12-03T12:00' }],
  passengers: '3',
  purpose: '비즈니스 미팅',
  driver: 'female',
  memo: 'VIP 2명',
  flightNumber: 'KE123',
  couponId: 11,
  points: '30000',
};
const saved = (form: ReservationForm, source = ''): SavedForm => ({ v: 1, source, form });

describe('passenger box', () => {
  it('keeps 1–20 as typed, digits only', () => {
    expect(clampPassengerInput('3')).toEqual({ value: '3', note: null });
    expect(clampPassengerInput('20')).toEqual({ value: '20', note: null });
    expect(clampPassengerInput('1a2')).toEqual({ value: '12', note: null });
    expect(clampPassengerInput('07')).toEqual({ value: '7', note: null });
  });

  it('shows the count actually used, with a note: above 20 is 20, 0 is 1', () => {
    expect(clampPassengerInput('25')).toEqual({ value: '20', note: PASSENGER_NOTES.max });
    expect(clampPassengerInput('999')).toEqual({ value: '20', note: '최대 20명까지 가능합니다.' });
    expect(clampPassengerInput('0')).toEqual({ value: '1', note: '최소 1명부터 가능합니다.' });
  });

  it('lets the box be blank while typing, and makes it 1 when the user leaves it', () => {
    expect(clampPassengerInput('')).toEqual({ value: '', note: null });
    expect(clampPassengerInput('', true)).toEqual({ value: '1', note: PASSENGER_NOTES.min });
    expect(clampPassengerInput('5', true)).toEqual({ value: '5', note: null });
  });
});

describe('points box', () => {
  it('lowers what is above the most usable to it, with a note', () => {
    expect(clampPointsInput('9999999', 100_000)).toEqual({ value: '100000', note: pointsNote(100_000) });
    expect(pointsNote(100_000)).toBe('최대 100,000 P까지 사용할 수 있습니다.');
    expect(clampPointsInput('50000', 0)).toEqual({ value: '0', note: pointsNote(0) });
  });

  it('keeps what fits as typed (the 만원 hint and the floor are the input\'s)', () => {
    expect(clampPointsInput('15000', 100_000)).toEqual({ value: '15000', note: null });
    expect(clampPointsInput('100000', 100_000)).toEqual({ value: '100000', note: null });
    expect(clampPointsInput('', 100_000)).toEqual({ value: '', note: null });
  });
});

describe('missing values', () => {
  it('lists what is missing in form order, with the control to focus', () => {
    const fresh = initialForm({}, TODAY);
    expect(missingFields(fresh).map((f) => [f.label, f.id])).toEqual([
      ['차량', 'car-button'], ['출발지', 'start-location'], ['도착지', 'end-location'],
    ]);
    expect(missingFields(typed)).toEqual([]);
    expect(missingFields(typed, false).map((f) => f.key)).toEqual(['car']);
    expect(missingFields({ ...typed, start: '', passengers: '' }).map((f) => f.key)).toEqual(['start', 'passengers']);
  });
});

describe('the race loser', () => {
  it('is a 409 CONFLICT on the start day; other refusals are not', () => {
    expect(isDayTaken(409, { code: ErrorCode.CONFLICT, errors: { start_at: ['이미 예약된 날짜: 2026-12-03'] } })).toBe(true);
    expect(isDayTaken(409, { code: ErrorCode.CONFLICT, errors: { billing_key: ['이미 사용된 빌링키입니다.'] } })).toBe(false);
    expect(isDayTaken(409, { code: ErrorCode.CONFLICT, errors: {} })).toBe(false);
    expect(isDayTaken(422, { code: ErrorCode.UNPROCESSABLE, errors: { start_at: ['x'] } })).toBe(false);
  });
});

describe('a prefill over a draft', () => {
  it('takes the fields the link carries and keeps the rest', () => {
    const f = overlayPrefill(typed, { origin: '부산 해운대구 해운대해변로 264', passengers: 5 }, TODAY);
    expect(f).toEqual({ ...typed, startLocation: '부산 해운대구 해운대해변로 264', passengers: '5' });
  });

  it('moves the whole schedule with a new day from the fleet: end and waypoint times keep their distance', () => {
    const f = overlayPrefill(typed, { carId: 5, date: '2026-12-10' }, TODAY);
    expect(f).toMatchObject({ carId: 5, start: '2026-12-10T10:00', end: '2026-12-10T20:30', couponId: 11, points: '30000', driver: 'female' });
    expect(f.waypoints).toEqual([{ key: 2, address: '서울 중구 세종대로 110', time: '2026-12-10T12:00' }]);
    expect(overlayPrefill({ ...typed, end: '' }, { time: '22:00' }, TODAY)).toMatchObject({ start: '2026-12-03T22:00', end: '' });
  });

  it('replaces the waypoints when the link has its own', () => {
    expect(overlayPrefill(typed, { waypoints: ['A', 'B'] }, TODAY).waypoints).toEqual([{ key: 1, address: 'A', time: '' }, { key: 2, address: 'B', time: '' }]);
  });

  it('starts from the default start day and time when the draft has none', () => {
    expect(overlayPrefill({ ...typed, start: '' }, { date: '2026-12-10' }, TODAY)).toMatchObject({ start: '2026-12-10T09:00', end: '2026-12-10T17:00' });
    expect(overlayPrefill({ ...typed, start: '' }, { time: '14:00' }, TODAY)).toMatchObject({ start: '2026-11-02T14:00', end: '2026-11-02T22:00' });
  });
});

describe('the saved draft', () => {
  it('reads back exactly what was saved', () => {
    expect(parseSavedForm(JSON.stringify(saved(typed, 'carId=3')))).toEqual(saved(typed, 'carId=3'));
  });

  it('refuses what is not a draft of this version', () => {
    for (const raw of [null, '', 'not json', 'null', '[]', JSON.stringify({ v: 2, form: typed }), JSON.stringify({ v: 1, form: 'x' })]) {
      expect(parseSavedForm(raw)).toBeNull();
    }
  });

  it('reads a tampered form defensively', () => {
    const f = sanitizeForm({
      carId: '3', start: 'tomorrow', end: '2026-12-03T20:30', startLocation: 7, passengers: '99', driver: 'robot', points: '1,000',
      couponId: -1, memo: 'm'.repeat(2000), waypoints: [{ key: 1, address: 'A', time: 'x' }, { key: 1, address: 'B', time: '' }, 'junk'],
    })!;
    expect(f).toMatchObject({ carId: null, start: '', end: '2026-12-03T20:30', startLocation: '', passengers: '20', driver: 'any', points: '1000', couponId: null });
    expect(f.memo).toHaveLength(1000);
    expect(f.waypoints).toEqual([{ key: 1, address: 'A', time: '' }, { key: 2, address: 'B', time: '' }]);
    expect(sanitizeForm({ ...typed, passengers: '' })!.passengers).toBe('1');
  });
});

describe('the form the page opens with', () => {
  const chat = `?${prefillToSearch({ carId: 7, date: '2026-12-20', time: '14:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272', passengers: 2 })}`;

  it('a fresh visit: the defaults, or the prefill of a link', () => {
    expect(openingForm({ search: '', today: TODAY, cardForm: null, saved: null })).toEqual({ form: initialForm({}, TODAY), source: '', restored: false });
    const o = openingForm({ search: chat, today: TODAY, cardForm: null, saved: null });
    expect(o.restored).toBe(false);
    expect(o.source).toBe(prefillSource(chat));
    expect(o.form).toMatchObject({ carId: 7, start: '2026-12-20T14:00', end: '2026-12-20T22:00', passengers: '2' });
  });

  it('a reload or the way back from login: the draft as it was, end time, waypoint times, driver, coupon and points included', () => {
    expect(openingForm({ search: '', today: TODAY, cardForm: null, saved: saved(typed) })).toEqual({ form: typed, source: '', restored: true });
    // Opened from a link, then reloaded: the same link does not undo the edits.
    expect(openingForm({ search: chat, today: TODAY, cardForm: null, saved: saved(typed, prefillSource(chat)) }).form).toEqual(typed);
  });

  it('a new link from the chat takes precedence over an old draft', () => {
    const o = openingForm({ search: chat, today: TODAY, cardForm: null, saved: saved(typed, 'carId=3') });
    expect(o).toMatchObject({ source: prefillSource(chat), restored: true });
    expect(o.form).toMatchObject({ carId: 7, start: '2026-12-20T14:00', startLocation: '서울 중구 세종대로 110', endLocation: '인천 중구 공항로 272', passengers: '2', memo: 'VIP 2명' });
  });

  it('back from the card provider: the form the card step saved', () => {
    const carded = { ...typed, memo: '카드 단계' };
    expect(openingForm({ search: '?transactionType=ISSUE_BILLING_KEY', today: TODAY, cardForm: carded, saved: saved(typed, 'carId=3') })).toEqual({ form: carded, source: 'carId=3', restored: true });
    expect(openingForm({ search: '', today: TODAY, cardForm: 'broken', saved: saved(typed) }).form).toEqual(typed);
  });

  it('normalises the prefill query so a reordered link is the same link', () => {
    expect(prefillSource('?date=2026-12-20&carId=7')).toBe(prefillSource('?carId=7&date=2026-12-20&junk=1'));
    expect(prefillSource('?billingKey=x&transactionType=ISSUE_BILLING_KEY')).toBe('');
  });
});
