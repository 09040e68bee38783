import { clashes, inclusiveSpan } from '../../domain/availability';
import { feeForTerm, isGarageActive, type Car } from '../../domain/car';
import { NO_EXTRAS, type OptionExtras } from '../../domain/extension';
import { NO_PREPAYMENT_CREDIT, type PrepaymentCredit, type SwapSubscription } from '../../domain/swap';
import type { Db } from '../db/client';
import { ApiError, conflict, unprocessable } from '../errors';
import { feeChanges } from '../billing/subscription-billing';
import { timelines } from '../catalogue/inventory';
import type { Found, SwapRow } from './swap-views';

/**
 * What the 차량 교체 rule (src/domain/swap.ts) reads of a subscription, and the checks of a car that both the
 * quote and the confirmation make. docs/decisions/swap.md.
 */

export const confirmedOf = (rows: readonly SwapRow[]) => rows.filter((r) => r.status === 'CONFIRMED');

export async function ruleInput(db: Db, f: Found, swaps: readonly SwapRow[]): Promise<SwapSubscription> {
  return {
    startDate: f.sub.startDate, endDate: f.sub.endDate, termMonths: f.request.month + f.sub.extendedMonths, paidMonths: f.sub.paidMonths,
    isActive: f.sub.isActive, billingStatus: f.sub.billingStatus, exitDate: f.sub.exitDate, baseFee: f.request.fee, feeChanges: await feeChanges(db, f.sub.id),
    swaps: swaps.flatMap((r) => (r.status === 'CANCELLED' ? [] : [{ swapDate: r.swapDate, status: r.status, billingMonth: r.billingMonth }])),
    prepaymentCredit: prepaymentCreditOf(f),
  };
}

/** The order's 선납금 credit (the quote's monthly share over the order's months): it stays with the subscription through a swap. */
export function prepaymentCreditOf(f: Found): PrepaymentCredit {
  const q = f.request.options?.quote;
  return q && q.prepayment_credit > 0 ? { monthly: q.prepayment_credit, lastMonth: f.request.month } : NO_PREPAYMENT_CREDIT;
}

/** The order's monthly option extras as stored with it (as the extension takes them). */
export function optionExtras(f: Found): OptionExtras {
  const q = f.request.options?.quote;
  return q ? { mileage_monthly: q.mileage_monthly, young_driver_monthly: q.young_driver_monthly, extra_drivers_monthly: q.extra_drivers_monthly } : NO_EXTRAS;
}

export const refuse = (a: { status: 409 | 422; reason: string }, field = 'date'): ApiError => (a.status === 409 ? conflict(a.reason) : unprocessable(a.reason, { [field]: [a.reason] }));

/** The first day in [day, end] the car is taken by another subscription, hold or swap (null: free). */
export async function takenFrom(db: Db, f: Found, carId: number, day: string, now: Date): Promise<string | null> {
  const line = (await timelines(db, [carId], now, f.request.id)).get(carId) ?? [];
  const hit = clashes(line, inclusiveSpan(day, f.sub.endDate))[0];
  if (!hit) return null;
  return hit.start > day ? hit.start : day;
}

/** Can the subscription's term be had on this car today: live in the garage and a fee for the order's months. */
export const offers = (car: Car, months: number, today: string) => isGarageActive(car, today) && feeForTerm(car, months) !== null;
