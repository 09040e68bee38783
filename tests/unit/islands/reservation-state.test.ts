import { describe, expect, it } from 'vitest';
import { EMPTY_FORM } from '../../../src/islands/butler/reservation-form';
import { initialReservationState, reservationReducer, type ReservationAction, type ReservationState } from '../../../src/islands/butler/reservation-state';

/** The butler reservation form's state (ReservationForm.tsx): one reducer, its stage a union. */
const run = (...actions: ReservationAction[]) => actions.reduce<ReservationState>(reservationReducer, initialReservationState);
const opened: ReservationAction = { type: 'opened', form: { ...EMPTY_FORM, carId: 3 }, source: 'carId=3', restored: false };

describe('the reservation form state', () => {
  it('opens from the draft or prefill: editing, untouched unless a draft was restored', () => {
    expect(run(opened)).toMatchObject({ stage: 'editing', source: 'carId=3', touched: false, form: { carId: 3 } });
    expect(run({ ...opened, restored: true }).touched).toBe(true);
  });

  it('walks the card step: submit, confirm, start (closing the dialog and the taken-day notice), started', () => {
    const taken = run(opened, { type: 'answered', dayTaken: true });
    expect(taken.dayTaken).toBe('shown');
    const confirming = run(opened, { type: 'answered', dayTaken: true }, { type: 'submitted' }, { type: 'confirm' });
    expect(confirming).toMatchObject({ stage: 'confirming', touched: true, submitted: true, error: null });
    const starting = reservationReducer(confirming, { type: 'starting' });
    expect(starting).toMatchObject({ stage: 'starting', dayTaken: null });
    expect(reservationReducer(starting, { type: 'started' }).stage).toBe('editing');
    expect(reservationReducer(confirming, { type: 'dialogClosed' }).stage).toBe('editing');
  });

  it('dismisses a shown taken-day notice when the car or the day changes, not on other edits', () => {
    const shown = run(opened, { type: 'answered', dayTaken: true });
    expect(reservationReducer(shown, { type: 'edited', update: (f) => ({ ...f, memo: 'x' }) }).dayTaken).toBe('shown');
    expect(reservationReducer(shown, { type: 'edited', update: (f) => ({ ...f, carId: 4 }), dismissDayTaken: true })).toMatchObject({ dayTaken: 'dismissed', touched: true, form: { carId: 4 } });
  });

  it('clamps points without counting it as the user\'s change', () => {
    const s = run(opened, { type: 'pointsClamped', points: '10000', note: '최대 10,000P' });
    expect(s).toMatchObject({ touched: false, pointNote: '최대 10,000P', form: { points: '10000' } });
  });

  it('resets to a fresh form: untouched, notices cleared, the sections remounted', () => {
    const s = run(opened, { type: 'submitted' }, { type: 'refused', error: '오류' }, { type: 'pointNote', note: 'n' }, { type: 'resetAsk' }, { type: 'reset', form: EMPTY_FORM });
    expect(s).toMatchObject({ stage: 'editing', form: EMPTY_FORM, source: '', touched: false, submitted: false, error: null, pointNote: null, dayTaken: 'dismissed', generation: 1 });
  });
});
