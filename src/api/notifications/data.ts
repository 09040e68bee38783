import { customerCarName } from '../../domain/butler-own-car';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { dotDate, formatKoreaDateTime, koreaDate } from '../../domain/dates';
import { paymentLabel, paymentLinesOf, type PaymentLine } from '../../domain/payments';
import { asTripCharge, type TripCharge } from '../../domain/waiting';
import { carOnDay } from '../../domain/swap-cars';
import type { Db } from '../db/client';
import type { Loaded } from './template';
import { brands, butlerCars, butlerRequests, butlerSubscriptions, cars, drivers, models, payments, subscriptionHandovers, subscriptionRequests, subscriptionSwaps, subscriptions, users } from '../db/schema';

/**
 * What templates read, by record: current data at render time (an event names ids only). Each
 * returns undefined when the record is gone.
 */

export type UserRow = typeof users.$inferSelect;

/** A live (not withdrawn) customer. */
export async function liveCustomer(db: Db, userId: number): Promise<UserRow | undefined> {
  const [u] = await db.select().from(users).where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return u;
}

/** The name a message greets: the person's name, else 고객. */
export const greeting = (u: Pick<UserRow, 'name'> | undefined) => `${u?.name?.trim() || '고객'}님`;

/** 555,000원 (the one money format, src/domain/money.ts). */
export { won } from '../../domain/money';

/** 2026.12.03 (a YYYY-MM-DD day as people read it). */
export const day = dotDate;

/** 2026.12.03 14:30 in Korean time. */
export const dateTime = (at: Date) => formatKoreaDateTime(at);

const carLabel = sql<string>`trim(${brands.name} || ' ' || ${models.name} || coalesce(' ' || ${cars.subModel}, ''))`;
const butlerCarLabel = sql<string>`trim(${brands.name} || ' ' || ${models.name} || coalesce(' ' || ${butlerCars.subModel}, ''))`;

/** A subscription request with its car's name. */
export async function subscriptionRequest(db: Db, id: number) {
  const [row] = await db
    .select({ request: subscriptionRequests, car: carLabel })
    .from(subscriptionRequests)
    .innerJoin(cars, eq(cars.id, subscriptionRequests.carId))
    .innerJoin(models, eq(models.id, cars.modelId))
    .innerJoin(brands, eq(brands.id, models.brandId))
    .where(eq(subscriptionRequests.id, id));
  return row;
}

/**
 * A subscription with its request and the name of the car it holds on `onDay` (a Korean day): the
 * order's car, or after a confirmed 차량 교체 from its day on, the new one (carOnDay, the rule
 * mileage and extensions use). Messages say the day they are about: a charge's, a return's, today.
 */
export async function subscription(db: Db, id: number, onDay: string) {
  const [row] = await db
    .select({ subscription: subscriptions, request: subscriptionRequests })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, id));
  if (!row) return undefined;
  return { ...row, car: await carName(db, await subscriptionCarOn(db, row.subscription.id, row.request.carId, onDay)) };
}

/** The car id a subscription holds on a Korean day (its confirmed swaps applied). */
async function subscriptionCarOn(db: Db, subscriptionId: number, orderCarId: number, onDay: string): Promise<number> {
  const swaps = await db
    .select({ fromCarId: subscriptionSwaps.fromCarId, toCarId: subscriptionSwaps.toCarId, swapDate: subscriptionSwaps.swapDate })
    .from(subscriptionSwaps)
    .where(and(eq(subscriptionSwaps.subscriptionId, subscriptionId), eq(subscriptionSwaps.status, 'CONFIRMED')));
  return carOnDay(orderCarId, swaps, onDay);
}

/** A butler request with its car's name and plate, its driver once dispatched and, once confirmed, its butler subscription's id. */
export async function butlerRequest(db: Db, id: number) {
  const [row] = await db
    .select({
      request: butlerRequests, car: butlerCarLabel, licensePlate: butlerCars.licensePlate, subscriptionId: butlerSubscriptions.id,
      driver: { name: drivers.name, phone: drivers.phone },
    })
    .from(butlerRequests)
    // A driver-only booking (own-car) has no fleet car: messages name the customer's car and its plate.
    .leftJoin(butlerCars, eq(butlerCars.id, butlerRequests.butlerCarId))
    .leftJoin(models, eq(models.id, butlerCars.modelId))
    .leftJoin(brands, eq(brands.id, models.brandId))
    .leftJoin(butlerSubscriptions, eq(butlerSubscriptions.requestId, butlerRequests.id))
    .leftJoin(drivers, eq(drivers.id, butlerRequests.driverId))
    .where(eq(butlerRequests.id, id));
  if (!row) return row;
  const own = row.request.customerCar;
  return own ? { ...row, car: customerCarName(own), licensePlate: own.plate } : { ...row, car: row.car ?? '', licensePlate: row.licensePlate };
}

interface DriverTrip {
  found: NonNullable<Awaited<ReturnType<typeof butlerRequest>>>;
  to: { channel: 'kakao'; to: string }[];
  vars: Record<'기사' | '일시' | '출발지' | '도착지' | '예약번호' | '차량', string>;
}

/**
 * A driver's message about one trip: the trip, the roster driver's 알림톡 address and the words
 * every driver message uses (기사, 일시, 출발지, 도착지, 예약번호, 차량); a skip when either is gone.
 */
export async function driverTrip(db: Db, butlerRequestId: number, driverId: number): Promise<{ skip: string } | DriverTrip> {
  const found = await butlerRequest(db, butlerRequestId);
  if (!found) return { skip: '예약을 찾을 수 없습니다.' };
  const [driver] = await db.select({ name: drivers.name, phone: drivers.phone }).from(drivers).where(eq(drivers.id, driverId));
  if (!driver) return { skip: '기사를 찾을 수 없습니다.' };
  const r = found.request;
  return {
    found,
    to: [{ channel: 'kakao', to: driver.phone }],
    vars: { 기사: driver.name, 일시: tripTime(r), 출발지: r.startLocation, 도착지: r.endLocation, 예약번호: String(r.id), 차량: found.car },
  };
}

/** The passenger a company booker booked for gets the trip's messages too, by 알림톡 (none when the booker rides). */
export const guestCopy = (r: Pick<typeof butlerRequests.$inferSelect, 'id' | 'guestPhone'>): NonNullable<Loaded['copyTo']> =>
  r.guestPhone ? [{ channel: 'kakao', to: r.guestPhone, guestTrip: { id: r.id, guestPhone: r.guestPhone } }] : [];

/** The name a trip message greets: the passenger's when booked for a guest, else the customer's. */
export async function tripGreeting(db: Db, r: Pick<typeof butlerRequests.$inferSelect, 'guestName'>, userId: number): Promise<string> {
  return r.guestName ? `${r.guestName}님` : greeting(await liveCustomer(db, userId));
}

/** The customer's page of a booking a message links to: its butler subscription once confirmed, else the request. */
export function tripPagePath(found: { subscriptionId: number | null; request: { id: number } }): string {
  return found.subscriptionId ? `/butler/subscribe/${found.subscriptionId}` : `/butler/request/${found.request.id}`;
}

/** The trip's time as a message says it: start, and end when booked with one. */
export function tripTime(r: Pick<typeof butlerRequests.$inferSelect, 'startAt' | 'endAt'>): string {
  return r.endAt ? `${dateTime(r.startAt)} ~ ${koreaDate(r.endAt) === koreaDate(r.startAt) ? dateTime(r.endAt).slice(-5) : dateTime(r.endAt)}` : dateTime(r.startAt);
}

/** A payment row. */
export async function payment(db: Db, id: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

/** What a payment was for, as the customer reads it (paymentLabel), the first payment's parts, and the page it belongs to. */
export async function paymentFor(db: Db, p: typeof payments.$inferSelect): Promise<{ label: string; lines: PaymentLine[] | null; path: string; trip: TripCharge | null }> {
  const [order] = p.purpose === 'SUBSCRIPTION_FIRST' ? await db.select({ options: subscriptionRequests.options }).from(subscriptionRequests).where(eq(subscriptionRequests.id, p.refId)) : [];
  // The charge after a butler trip: what it is made of, as stored with 운행 종료.
  const [trip] = p.purpose === 'BUTLER_OVERTIME' ? await db.select({ tripCharge: butlerRequests.tripCharge }).from(butlerRequests).where(eq(butlerRequests.id, p.refId)) : [];
  const charge = asTripCharge(trip?.tripCharge);
  const parts = charge ?? order?.options?.quote ?? null;
  return { label: paymentLabel(p, parts), lines: paymentLinesOf(p, parts), path: '/my/payments', trip: charge };
}

/** A subscription's delivery or return with its driver's name. */
export async function handover(db: Db, id: number) {
  const [row] = await db
    .select({ h: subscriptionHandovers, driver: drivers.name })
    .from(subscriptionHandovers)
    .innerJoin(drivers, eq(drivers.id, subscriptionHandovers.driverId))
    .where(eq(subscriptionHandovers.id, id));
  return row;
}

/** 탁송(인도) or 반납, as messages name a handover. */
const HANDOVER_WORD = { DELIVERY: '탁송(인도)', RETURN: '반납' } as const;

/** A car's name by id. */
async function carName(db: Db, id: number): Promise<string> {
  const [row] = await db.select({ car: carLabel }).from(cars).innerJoin(models, eq(models.id, cars.modelId)).innerJoin(brands, eq(brands.id, models.brandId)).where(eq(cars.id, id));
  return row?.car ?? '';
}

/**
 * How a message names a handover and its car: the subscription's own (탁송(인도)/반납, the car it
 * holds on the handover's day) or a swap's (교체 반납: the old car; 교체 인도: the new one; `pair`: the schedule of both,
 * "교체 반납·인도" of "old → new").
 */
export async function handoverWords(db: Db, h: typeof subscriptionHandovers.$inferSelect, orderCarId: number, pair = false): Promise<{ kind: string; car: string }> {
  // The subscription's own delivery or return: the car it holds that day (a return after a swap gives back the new car).
  const own = async () => ({ kind: HANDOVER_WORD[h.kind], car: await carName(db, await subscriptionCarOn(db, h.subscriptionId, orderCarId, h.scheduledDate)) });
  if (h.swapId === null) return own();
  const [swap] = await db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, h.swapId));
  if (!swap) return own();
  if (pair) return { kind: '교체 반납·인도', car: `${await carName(db, swap.fromCarId)} → ${await carName(db, swap.toCarId)}` };
  return h.kind === 'RETURN' ? { kind: '교체 반납', car: await carName(db, swap.fromCarId) } : { kind: '교체 인도', car: await carName(db, swap.toCarId) };
}
