import { EMPTY_FORM, type ReservationForm as Form } from './reservation-form';

/** Where the address search writes: the start, the end, or a waypoint (its key). */
type SearchTarget = 'start' | 'end' | number;

/**
 * Where the form is: opening (the saved draft or prefill not read yet), editing, a dialog open
 * (confirming the card step, resetting the input), or starting the card step.
 */
type ReservationStage = 'opening' | 'editing' | 'confirming' | 'resetting' | 'starting';

export interface ReservationState {
  stage: ReservationStage;
  form: Form;
  /** The prefill query the form stands for (kept with the draft, see openingForm). */
  source: string;
  /** The user changed something or pressed 예약 요청하기: the missing-values message shows from then on, and the draft is kept. */
  touched: boolean;
  submitted: boolean;
  /**
   * The API refused the booking because someone else took the day first (nothing was charged):
   * 'shown' until the user picks another day or car, then 'dismissed' (the generic failure box stays hidden too).
   */
  dayTaken: 'shown' | 'dismissed' | null;
  /** The address search open for this field, or null. */
  target: SearchTarget | null;
  error: string | null;
  pointNote: string | null;
  /** Bumped by 입력 초기화 so the sections start over (their notes too). */
  generation: number;
}

export type ReservationAction =
  | { type: 'opened'; form: Form; source: string; restored: boolean }
  /** A change by the user (picking a car or a start day also dismisses the taken-day notice). */
  | { type: 'edited'; update: (f: Form) => Form; dismissDayTaken?: boolean }
  /** Points brought down to what is usable now: not a change by the user. */
  | { type: 'pointsClamped'; points: string; note: string | null }
  | { type: 'pointNote'; note: string | null }
  | { type: 'search'; target: SearchTarget | null }
  | { type: 'submitted' }
  | { type: 'refused'; error: string }
  | { type: 'confirm' }
  | { type: 'resetAsk' }
  | { type: 'dialogClosed' }
  | { type: 'starting' }
  | { type: 'started' }
  /** The booking's answer: the day was taken (the notice shows) or not. */
  | { type: 'answered'; dayTaken: boolean }
  | { type: 'reset'; form: Form };

export const initialReservationState: ReservationState = {
  stage: 'opening', form: EMPTY_FORM, source: '', touched: false, submitted: false, dayTaken: null, target: null, error: null, pointNote: null, generation: 0,
};

const dismissed = (d: ReservationState['dayTaken']) => (d ? 'dismissed' : d);

export function reservationReducer(s: ReservationState, a: ReservationAction): ReservationState {
  switch (a.type) {
    case 'opened':
      return { ...s, stage: 'editing', form: a.form, source: a.source, touched: a.restored };
    case 'edited':
      return { ...s, form: a.update(s.form), touched: true, dayTaken: a.dismissDayTaken ? dismissed(s.dayTaken) : s.dayTaken };
    case 'pointsClamped':
      return { ...s, form: { ...s.form, points: a.points }, pointNote: a.note };
    case 'pointNote':
      return { ...s, pointNote: a.note };
    case 'search':
      return { ...s, target: a.target };
    case 'submitted':
      return { ...s, error: null, touched: true, submitted: true };
    case 'refused':
      return { ...s, error: a.error };
    case 'confirm':
      return { ...s, stage: 'confirming' };
    case 'resetAsk':
      return { ...s, stage: 'resetting' };
    case 'dialogClosed':
      return s.stage === 'confirming' || s.stage === 'resetting' ? { ...s, stage: 'editing' } : s;
    case 'starting':
      return { ...s, stage: 'starting', dayTaken: null };
    case 'started':
      return s.stage === 'starting' ? { ...s, stage: 'editing' } : s;
    case 'answered':
      return { ...s, dayTaken: a.dayTaken ? 'shown' : null };
    case 'reset':
      return { ...s, stage: 'editing', form: a.form, source: '', touched: false, submitted: false, error: null, pointNote: null, dayTaken: 'dismissed', generation: s.generation + 1 };
  }
}
