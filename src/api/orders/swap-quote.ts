import { clashes, inclusiveSpan } from '../../domain/availability';
import { carCover, carDisplayName, feeForTerm } from '../../domain/car';
import { todayInKorea } from '../../domain/dates';
import { extrasTotal, NO_EXTRAS } from '../../domain/extension';
import { creditOfMonth, SWAP_RULE_LINES, swapQuote, swapRefusal, swapWindow, type SwapQuote } from '../../domain/swap';
import { billingMonthOf } from '../../domain/early-exit';
import { carOnDay } from '../../domain/swap-cars';
import type { Db } from '../db/client';
import { conflict, unprocessable } from '../errors';
import { allCars } from '../catalogue/catalogue';
import { timelines } from '../catalogue/inventory';
import { ownSubscription, swapsOf, type Found, type SwapRow } from './swap-views';
import { confirmedOf, offers, optionExtras, prepaymentCreditOf, refuse, ruleInput } from './swap-terms';

/*
 * 차량 교체 (swap), the customer's side. Here: the window and the cars one may choose, and the
 * quote. The confirmation (the prorated month's difference charged or refunded once, then applied)
 * is ./swap-confirm.ts and ./swap-apply.ts, the 부속 계약서 issued once by a job ./swap-annexes.ts;
 * the timelines src/api/catalogue/inventory.ts. The rule is src/domain/swap.ts; docs/decisions/swap.md.
 */

/** A car one may swap to on the chosen day: its new monthly fee, and the first day it is taken inside [day, end] (null: free). */
interface SwapCarChoice {
  id: number;
  name: string;
  brand: string;
  image: string;
  base_fee: number;
  new_fee: number;
  taken_from: string | null;
}

/** GET /subscriptions/{id}/swap: the window, the rule, the cars for the day and, with a car, the quote. */
export interface SwapQuoteAnswer {
  first: string;
  last: string;
  /** The day the cars are listed for (the asked one, else the first). */
  date: string;
  rule: string[];
  cars: SwapCarChoice[];
  quote: (SwapQuote & { car_id: number; car_name: string; taken_from: string | null }) | null;
}

/** The cars one may swap to on `day` (what the garage would show, less the car held that day), by new fee. */
async function carChoices(db: Db, f: Found, swaps: readonly SwapRow[], day: string, now: Date): Promise<SwapCarChoice[]> {
  const today = todayInKorea(now);
  const current = carOnDay(f.request.carId, confirmedOf(swaps), day);
  const cars = (await allCars(db)).filter((c) => c.id !== current && offers(c, f.request.month, today));
  const lines = await timelines(db, cars.map((c) => c.id), now, f.request.id);
  const span = inclusiveSpan(day, f.sub.endDate);
  // The order's 선납금 credit stays with the subscription: each car's new fee has it off, as the quote does.
  const extras = extrasTotal(optionExtras(f)) - creditOfMonth(prepaymentCreditOf(f), billingMonthOf(f.sub.startDate, day, f.request.month + f.sub.extendedMonths));
  return cars
    .map((c) => {
      const base = feeForTerm(c, f.request.month)!;
      const hit = clashes(lines.get(c.id) ?? [], span)[0];
      return { id: c.id, name: carDisplayName(c), brand: c.model.brand.name, image: carCover(c).src, base_fee: base, new_fee: Math.max(0, base + extras), taken_from: hit ? (hit.start > day ? hit.start : day) : null };
    })
    .sort((a, b) => a.new_fee - b.new_fee || a.id - b.id);
}

export async function quoteSwap(ctx: { db: Db; clock: { now(): Date } }, subscriptionId: number, userId: number, date: string | undefined, carId: number | undefined): Promise<SwapQuoteAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  const f = await ownSubscription(ctx.db, subscriptionId, userId);
  const swaps = await swapsOf(ctx.db, subscriptionId);
  const rule = await ruleInput(ctx.db, f, swaps);
  const refusal = swapRefusal(rule, today);
  if (refusal) throw conflict(refusal.reason);
  const { first, last } = swapWindow(rule, today);
  const day = date ?? first;
  if (date !== undefined) {
    const check = swapQuote(rule, day, 0, NO_EXTRAS, today);
    if (!check.ok) throw refuse(check);
  }
  const cars = await carChoices(ctx.db, f, swaps, day, now);
  let quote: SwapQuoteAnswer['quote'] = null;
  if (carId !== undefined) {
    if (date === undefined) throw unprocessable('교체일을 선택해주세요.', { date: ['교체일을 선택해주세요.'] });
    const car = cars.find((c) => c.id === carId);
    if (!car) throw unprocessable('교체할 수 없는 차량입니다. 목록에서 차량을 선택해주세요.', { car_id: ['교체할 수 없는 차량입니다.'] });
    const a = swapQuote(rule, day, car.base_fee, optionExtras(f), today);
    if (!a.ok) throw refuse(a);
    quote = { ...a.quote, car_id: car.id, car_name: car.name, taken_from: car.taken_from };
  }
  return { first, last, date: day, rule: SWAP_RULE_LINES, cars, quote };
}
