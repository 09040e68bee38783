import { judgeEligibility, OWN_CAR_ONLY_MESSAGE, type ButlerLegalModel, type ButlerLegalView, type LegalBasis } from '../../domain/butler-legal';
import { defaultEnd, type ButlerCar } from '../../domain/butler';
import type { ButlerReservation } from '../../domain/schemas/butler';
import { unprocessable } from '../errors';
import type { RequestRow } from './butler-requests';

/** The legal basis a butler booking is made under (BUTLER_LEGAL_MODEL), judged and shown. */

/** BUTLER_LEGAL_MODEL (or a test run's override) and the partner it names. */
export interface ButlerLegalSetting {
  model: ButlerLegalModel;
  partner: { name: string; licence: string };
  /** own-car: won per hour of the driver (BUTLER_OWN_CAR_HOURLY_RATE). */
  ownCarHourlyRate?: number;
}

/**
 * What a new booking rests on, or 422 before anything is paid: under `exemptions` the claimed
 * 시행령 제18조 case must fit (judgeEligibility); under `own-car` no fleet car may be rented.
 */
export function legalBasisOf(legal: ButlerLegalSetting, input: Pick<ButlerReservation, 'eligibility' | 'flight_number'>, car: ButlerCar, start: Date, end: Date | null): LegalBasis {
  if (legal.model === 'own-car') throw unprocessable(OWN_CAR_ONLY_MESSAGE, { car_id: [OWN_CAR_ONLY_MESSAGE] });
  if (legal.model === 'partner') return { partner: { ...legal.partner } };
  const verdict = judgeEligibility('exemptions', input.eligibility ?? null, { start, end: end ?? defaultEnd(start), carSubModel: car.sub_model, flightNumber: input.flight_number });
  if (!verdict.ok) throw unprocessable(verdict.message, { [verdict.field]: [verdict.message] });
  return verdict.record ? { eligibility: verdict.record } : {};
}

/** A booking's legal basis in view shape. */
export function legalView(row: Pick<RequestRow, 'legalModel' | 'legalBasis'>): ButlerLegalView {
  const b = row.legalBasis ?? {};
  return { model: row.legalModel ?? null, partner: b.partner ?? null, eligibility: b.eligibility ?? null, refused: b.refused ?? null };
}
