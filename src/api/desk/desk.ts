import { legalView } from '../orders/butler-legal-basis';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { bookingConflicts, conflictWarning, termSpan } from '../../domain/availability';
import { photoSrc } from '../../domain/photos';
import { bookingsOf } from '../orders/availability';
import { sameUploadType, UPLOAD_TOO_LARGE, UPLOAD_TYPES, UPLOAD_WRONG_TYPE, type UploadType } from '../../domain/schemas/admin';
import { encodePhoto, photoView } from '../catalogue/photos/pipeline';
import { rejectionOf } from '../catalogue/photos/rejections';
import { saveEncoded } from '../catalogue/photos/store';
import type { Db } from '../db/client';
import type { DeskButlerRequest, DeskPage, DeskSubscriptionRequest, UploadAnswer } from '../../domain/console';
import type { TripStop } from '../../domain/dispatch';
import type { OrderStatus } from '../../domain/orders';
import type { PaymentView } from '../../domain/payments';
import { brands, butlerCars, butlerRequests, butlerWaypoints, cars, models, payments, subscriptionRequests, subscriptions, users } from '../db/schema';
import { toPaymentView } from '../billing/ledger';
import { orderDriverViews } from '../licences/licences';
import { badRequest, conflict, notFound, payloadTooLarge, unprocessable } from '../errors';
import { ADMIN_PAGE_SIZE, onPage, paginationInfo, totalRows } from '../pagination';

type OrderQuery = { status?: OrderStatus; page: number };

const customer = { id: users.id, name: users.name, email: users.email, mobile: users.mobile };
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The order desk: subscription requests (newest first), optionally of one status. */
export async function deskSubscriptionRequests(db: Db, q: OrderQuery): Promise<DeskPage<DeskSubscriptionRequest>> {
  const query = db
    .select({
      r: subscriptionRequests,
      user: customer,
      car: { id: cars.id, sub_model: cars.subModel, license_plate: cars.licensePlate },
      model: models.name,
      brand: brands.name,
      sub: { id: subscriptions.id, endDate: subscriptions.endDate, billingStatus: subscriptions.billingStatus, exitDate: subscriptions.exitDate },
      total: totalRows(),
    })
    .from(subscriptionRequests)
    .innerJoin(users, eq(users.id, subscriptionRequests.userId))
    .innerJoin(cars, eq(cars.id, subscriptionRequests.carId))
    .innerJoin(models, eq(models.id, cars.modelId))
    .innerJoin(brands, eq(brands.id, models.brandId))
    .leftJoin(subscriptions, eq(subscriptions.requestId, subscriptionRequests.id))
    .where(q.status ? eq(subscriptionRequests.status, q.status) : undefined)
    .orderBy(desc(subscriptionRequests.id));
  const rows = await onPage(query.$dynamic(), q.page, ADMIN_PAGE_SIZE);
  const bookings = await bookingsOf(db, [...new Set(rows.filter(({ r }) => r.status === 'PENDING').map(({ r }) => r.carId))]);
  const drivers = await orderDriverViews(db, rows.map(({ r }) => r.id));
  const conflictsOf = (r: (typeof rows)[number]['r']) =>
    r.status === 'PENDING' && r.requestedStart ? bookingConflicts({ id: r.id, status: 'PENDING', span: termSpan(r.requestedStart, r.month), paid: true }, bookings.get(r.carId) ?? []) : [];
  return {
    requests: rows.map(({ r, user, car, model, brand, sub }) => ({
      id: r.id,
      status: r.status,
      user,
      car: { ...car, model, brand },
      month: r.month,
      fee: r.fee,
      coupon_discount: r.couponDiscount,
      point_used: r.pointUsed,
      final_fee: r.finalFee,
      start_date: r.startDate,
      end_date: r.endDate,
      requested_start: r.requestedStart,
      options: r.options ?? null,
      drivers: drivers.get(r.id) ?? [],
      location_consent: r.locationConsent,
      created_at: r.createdAt.toISOString(),
      cancelled_at: iso(r.cancelledAt),
      subscription: sub ? { id: sub.id, end_date: sub.endDate, billing_status: sub.billingStatus, exit_date: sub.exitDate } : null,
      ...((conflicts) => ({ conflicts, conflict_warning: conflictWarning(conflicts) }))(conflictsOf(r)),
    })),
    pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, ADMIN_PAGE_SIZE),
  };
}

/** The order desk: butler requests (newest first), optionally of one status. */
export async function deskButlerRequests(db: Db, q: OrderQuery): Promise<DeskPage<DeskButlerRequest>> {
  const query = db
    .select({
      r: butlerRequests,
      user: customer,
      car: { id: butlerCars.id, sub_model: butlerCars.subModel, license_plate: butlerCars.licensePlate },
      model: models.name,
      brand: brands.name,
      total: totalRows(),
    })
    .from(butlerRequests)
    .innerJoin(users, eq(users.id, butlerRequests.userId))
    // A driver-only booking (own-car) has no fleet car: its row shows the customer's car.
    .leftJoin(butlerCars, eq(butlerCars.id, butlerRequests.butlerCarId))
    .leftJoin(models, eq(models.id, butlerCars.modelId))
    .leftJoin(brands, eq(brands.id, models.brandId))
    .where(q.status ? eq(butlerRequests.status, q.status) : undefined)
    .orderBy(desc(butlerRequests.id));
  const rows = await onPage(query.$dynamic(), q.page, ADMIN_PAGE_SIZE);
  const overtime = await latestOvertime(db, rows.map(({ r }) => r.id));
  const stops = await waypointsOf(db, rows.map(({ r }) => r.id));
  return {
    requests: rows.map(({ r, user, car, model, brand }) => ({
      id: r.id,
      status: r.status,
      user,
      car: r.customerCar || !car
        ? { id: 0, sub_model: r.customerCar?.kind === 'subscription' ? '(LUXE 구독 차량)' : null, license_plate: r.customerCar?.plate ?? null, model: r.customerCar?.name ?? '', brand: '고객 차량' }
        : { ...car, model: model ?? '', brand: brand ?? '' },
      customer_car: r.customerCar ?? null,
      actual_start_at: iso(r.actualStartAt),
      actual_end_at: iso(r.actualEndAt),
      overtime_payment: overtime.get(r.id) ?? null,
      start_at: r.startAt.toISOString(),
      end_at: iso(r.endAt),
      start_location: r.startLocation,
      end_location: r.endLocation,
      passenger_count: r.passengerCount,
      purpose: r.purpose,
      memo: r.memo,
      driver_preference: r.driverPreference,
      flight_number: r.flightNumber,
      legal: legalView(r),
      waypoints: stops.get(r.id) ?? [],
      final_price: r.finalPrice,
      created_at: r.createdAt.toISOString(),
    })),
    pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, ADMIN_PAGE_SIZE),
  };
}

/** Each booking's waypoints in order, with their times (ISO or null). */
async function waypointsOf(db: Db, requestIds: number[]): Promise<Map<number, TripStop[]>> {
  const byRequest = new Map<number, TripStop[]>();
  if (!requestIds.length) return byRequest;
  const rows = await db
    .select()
    .from(butlerWaypoints)
    .where(inArray(butlerWaypoints.butlerRequestId, requestIds))
    .orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id));
  for (const w of rows) {
    const list = byRequest.get(w.butlerRequestId) ?? [];
    list.push({ address: w.address, scheduled_time: iso(w.scheduledTime) });
    byRequest.set(w.butlerRequestId, list);
  }
  return byRequest;
}

/** The latest attempt of each booking's overtime charge (a declined one retried is its last retry). */
async function latestOvertime(db: Db, requestIds: number[]): Promise<Map<number, PaymentView>> {
  const latest = new Map<number, PaymentView>();
  if (!requestIds.length) return latest;
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.refType, 'butler_request'), inArray(payments.refId, requestIds), eq(payments.purpose, 'BUTLER_OVERTIME')))
    .orderBy(desc(payments.attempt), desc(payments.requestedAt));
  for (const p of rows) if (!latest.has(p.refId)) latest.set(p.refId, toPaymentView(p));
  return latest;
}

/** The customer of a pending subscription request (the staff cancel runs the customer's cancel); 404, or 409 when not pending. */
export async function subscriptionRequestOwner(db: Db, id: number): Promise<number> {
  const [row] = await db.select({ userId: subscriptionRequests.userId, status: subscriptionRequests.status }).from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
  if (!row) throw notFound('구독 신청을 찾을 수 없습니다.');
  if (row.status !== 'PENDING') throw conflict(row.status === 'CONFIRMED' ? '이미 확정된 구독 신청입니다.' : '이미 취소된 구독 신청입니다.');
  return row.userId;
}

// ── Uploads ───────────────────────────────────────────────────────────────────

/** Where images uploaded before photos were encoded live: DATA_DIR/uploads, still served at /api/uploads/{name} for the galleries that name them. */
const uploadsDir = (dataDir: string) => path.join(path.resolve(dataDir), 'uploads');

/** What the content really is (file-type reads its signature), when it is a type we accept: the declared type must match it. */
async function sniff(bytes: Buffer): Promise<UploadType | null> {
  const mime = (await fileTypeFromBuffer(bytes))?.mime;
  return mime !== undefined && Object.hasOwn(UPLOAD_TYPES, mime) ? (mime as UploadType) : null;
}

/** A photo the pipeline refused (not decodable, too many pixels, animated…): the Korean 422. */
const refusedPhoto = (error: unknown): never => {
  const { message } = rejectionOf(error);
  throw unprocessable(message, { file: [message] });
};

/**
 * Takes in a photo for the site: encoded once (images/pipeline.ts) and stored with its original
 * in the database (images/store.ts). Answers the address a gallery keeps for it (its largest JPEG
 * at /api/images) and the encoded photo. Refuses content that is not the declared image type or
 * is too large (413), and images the pipeline cannot take (422).
 */
export async function storeUpload(db: Db, dataDir: string, contentType: UploadType, bytes: Buffer, maxBytes: number): Promise<UploadAnswer> {
  if (!bytes.length) throw badRequest('이미지 데이터가 없습니다.', { file: ['이미지 데이터가 없습니다.'] });
  if (bytes.length > maxBytes) throw payloadTooLarge(UPLOAD_TOO_LARGE, { file: [UPLOAD_TOO_LARGE] });
  const sniffed = await sniff(bytes);
  if (!sniffed || !sameUploadType(sniffed, contentType)) throw badRequest('이미지 파일이 아니거나 형식이 맞지 않습니다.', { file: [UPLOAD_WRONG_TYPE] });
  const encoded = await encodePhoto(bytes).catch(refusedPhoto);
  await saveEncoded(db, dataDir, encoded, bytes);
  return { url: photoSrc(encoded), photo: photoView(encoded) };
}

/** An uploaded image's bytes and type, or null. `name` is already validated (hex.ext). */
export async function readUpload(dataDir: string, name: string): Promise<{ bytes: Buffer; type: string } | null> {
  const ext = name.split('.').pop();
  const type = Object.entries(UPLOAD_TYPES).find(([, e]) => e === ext)?.[0];
  if (!type) return null;
  try {
    return { bytes: await readFile(path.join(uploadsDir(dataDir), name)), type };
  } catch {
    return null;
  }
}
