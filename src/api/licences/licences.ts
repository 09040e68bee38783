import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { todayInKorea } from '../../domain/dates';
import { ErrorCode } from '../../domain/error-codes';
import {
  driverBand, handoverLicenceRefusal, LICENCE_REFUSAL, LICENCE_STATUS_TEXT, LICENCE_TYPE_LABEL, maskLicenceNumber,
  type LicenceCheckPurpose, type LicenceView, type LicenceVerdict,
} from '../../domain/licence';
import type { DriverAge } from '../../domain/subscription-price';
import type { RegisterLicenceInput } from '../../domain/schemas/licence';
import type { Db } from '../db/client';
import { driverLicences, identityVerifications, licenceChecks, requestDrivers, users } from '../db/schema';
import { ApiError, unprocessable } from '../errors';
import type { LicenceContext } from '../licence-provider';
import { numberDigest, openNumber, sealNumber } from './seal';

type LicenceRow = typeof driverLicences.$inferSelect;

function toLicenceView(r: LicenceRow): LicenceView {
  return {
    id: r.id, role: r.role, name: r.holderName, birth_date: r.birthDate, type: r.licenceType, type_label: LICENCE_TYPE_LABEL[r.licenceType],
    number: r.numberMasked, status: r.status, status_text: LICENCE_STATUS_TEXT[r.status], first_issued_on: r.firstIssuedOn, expires_on: r.expiresOn,
    checked_at: r.checkedAt.toISOString(),
  };
}

/** The customer's name and birth date as 본인인증 gave them: the licence must be theirs. */
async function verifiedPerson(db: Db, userId: number): Promise<{ name: string; birthDate: string }> {
  const [user] = await db.select({ name: users.name, ci: users.ci, verified: users.ciVerified }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user?.verified) throw new ApiError(403, ErrorCode.IDENTITY_REQUIRED, '본인인증을 마친 뒤 운전면허를 확인할 수 있습니다.', { identity: ['본인인증이 필요합니다.'] });
  const [identity] = user.ci
    ? await db
        .select({ name: identityVerifications.name, birthDate: identityVerifications.birthDate })
        .from(identityVerifications)
        .where(and(eq(identityVerifications.ci, user.ci), eq(identityVerifications.status, 'VERIFIED'), isNotNull(identityVerifications.birthDate)))
        .orderBy(desc(identityVerifications.createdAt))
        .limit(1)
    : [];
  const name = identity?.name ?? user.name;
  if (!identity?.birthDate || !name) throw unprocessable('본인인증 정보에 생년월일이 없어 운전면허를 확인할 수 없습니다. 본인인증을 다시 진행해주세요.', { identity: ['본인인증을 다시 진행해주세요.'] });
  return { name, birthDate: identity.birthDate };
}

async function recordCheck(db: Db, row: LicenceRow, verdict: LicenceVerdict, provider: string, purpose: LicenceCheckPurpose, now: Date, ref?: { type: string; id: number }) {
  await db.insert(licenceChecks).values({ licenceId: row.id, purpose, refType: ref?.type ?? null, refId: ref?.id ?? null, status: verdict.status, provider, reference: verdict.reference, checkedAt: now });
}

/**
 * POST /subscriptions/licences: asks the 운전자격확인시스템 about a licence and keeps its answer. The
 * same number registered again is the same row, checked again. A licence that may not drive is kept
 * with its answer (the record of the check) and refused with the reason (422).
 */
export async function registerLicence(ctx: LicenceContext, userId: number, input: RegisterLicenceInput): Promise<LicenceView> {
  const { db, config, licences } = ctx;
  const person = input.role === 'HOLDER' ? await verifiedPerson(db, userId) : { name: input.name!, birthDate: input.birth_date! };
  const now = ctx.clock.now();
  const verdict = await licences.verify({ number: input.number, type: input.type, name: person.name, birthDate: person.birthDate }, now);
  const key = config.licence.key;
  const values = {
    userId, role: input.role, holderName: person.name, birthDate: person.birthDate, licenceType: input.type, numberMasked: maskLicenceNumber(input.number),
    numberSealed: sealNumber(input.number, key), numberDigest: numberDigest(input.number, key), status: verdict.status,
    firstIssuedOn: verdict.first_issued_on, expiresOn: verdict.expires_on, checkedAt: now, updatedAt: now,
  };
  const [row] = await db
    .insert(driverLicences)
    .values(values)
    .onConflictDoUpdate({ target: [driverLicences.userId, driverLicences.numberDigest], set: values })
    .returning();
  await recordCheck(db, row, verdict, licences.name, 'REGISTER', now);
  if (verdict.status !== 'VALID') throw unprocessable(LICENCE_REFUSAL[verdict.status], { number: [LICENCE_STATUS_TEXT[verdict.status]] });
  return toLicenceView(row);
}

/** GET /subscriptions/licences: the customer's licences, newest check first (masked). */
export async function listLicences(db: Db, userId: number): Promise<LicenceView[]> {
  const rows = await db.select().from(driverLicences).where(eq(driverLicences.userId, userId)).orderBy(desc(driverLicences.checkedAt), desc(driverLicences.id));
  return rows.map(toLicenceView);
}

/** Asks the system again about stored licences, keeping each answer (the number unsealed only for the question). */
async function checkAgain(ctx: LicenceContext, rows: LicenceRow[], purpose: LicenceCheckPurpose, ref?: { type: string; id: number }): Promise<LicenceRow[]> {
  const now = ctx.clock.now();
  const out: LicenceRow[] = [];
  for (const row of rows) {
    const number = openNumber(row.numberSealed, ctx.config.licence.key);
    const verdict = await ctx.licences.verify({ number, type: row.licenceType, name: row.holderName, birthDate: row.birthDate }, now);
    const [after] = await ctx.db
      .update(driverLicences)
      .set({ status: verdict.status, firstIssuedOn: verdict.first_issued_on ?? row.firstIssuedOn, expiresOn: verdict.expires_on, checkedAt: now, updatedAt: now })
      .where(eq(driverLicences.id, row.id))
      .returning();
    await recordCheck(ctx.db, after, verdict, ctx.licences.name, purpose, now, ref);
    out.push(after);
  }
  return out;
}

export interface OrderDrivers {
  licenceIds: number[];
  band: DriverAge;
  reason: string | null;
}

/**
 * Before an order's charge: the customer's licence (the newest registered) and one checked licence
 * per additional driver, each asked again now; the age band follows their birth dates on the start.
 */
export async function checkOrderDrivers(ctx: LicenceContext, userId: number, extraIds: readonly number[], extraCount: number, start: string): Promise<OrderDrivers> {
  const { db } = ctx;
  const [holder] = await db
    .select()
    .from(driverLicences)
    .where(and(eq(driverLicences.userId, userId), eq(driverLicences.role, 'HOLDER')))
    .orderBy(desc(driverLicences.checkedAt), desc(driverLicences.id))
    .limit(1);
  if (!holder) throw unprocessable('운전면허 확인이 필요합니다. 신청 전에 계약자 본인의 운전면허를 확인해주세요.', { licence: ['계약자 운전면허를 확인해주세요.'] });
  const ids = [...new Set(extraIds)];
  if (ids.length !== extraCount) {
    throw unprocessable(`추가 운전자 ${extraCount}명의 운전면허를 각각 확인해주세요. (확인된 면허 ${ids.length}건)`, { extra_driver_licence_ids: [`추가 운전자 ${extraCount}명의 면허가 필요합니다.`] });
  }
  const extras = ids.length ? await db.select().from(driverLicences).where(and(inArray(driverLicences.id, ids), eq(driverLicences.userId, userId), eq(driverLicences.role, 'EXTRA'))) : [];
  if (extras.length !== ids.length) throw unprocessable('확인되지 않은 추가 운전자 면허입니다. 다시 확인해주세요.', { extra_driver_licence_ids: ['확인되지 않은 면허가 있습니다.'] });
  const checked = await checkAgain(ctx, [holder, ...extras], 'ORDER');
  const band = driverBand(checked.map(asDriver), start, ctx.config.licence.newDriver);
  if (!band.ok) throw unprocessable(band.message, { licence: [band.message] });
  return { licenceIds: checked.map((r) => r.id), band: band.band, reason: band.reason };
}

const asDriver = (r: LicenceRow) => ({ name: r.holderName, birth_date: r.birthDate, status: r.status, first_issued_on: r.firstIssuedOn, expires_on: r.expiresOn, role: r.role });

/** Names the order's drivers (inside the order's transaction). */
export async function recordOrderDrivers(tx: Db, requestId: number, licenceIds: readonly number[]): Promise<void> {
  if (licenceIds.length) await tx.insert(requestDrivers).values(licenceIds.map((licenceId) => ({ requestId, licenceId }))).onConflictDoNothing();
}

/** Each order's drivers, the customer first as the contract names them. */
async function driversOfRequests(db: Db, requestIds: readonly number[]): Promise<Map<number, LicenceRow[]>> {
  const out = new Map<number, LicenceRow[]>();
  if (!requestIds.length) return out;
  const rows = await db
    .select({ requestId: requestDrivers.requestId, l: driverLicences })
    .from(requestDrivers)
    .innerJoin(driverLicences, eq(driverLicences.id, requestDrivers.licenceId))
    .where(inArray(requestDrivers.requestId, [...requestIds]));
  for (const r of rows) out.set(r.requestId, [...(out.get(r.requestId) ?? []), r.l]);
  for (const list of out.values()) list.sort((a, b) => (a.role === b.role ? a.id - b.id : a.role === 'HOLDER' ? -1 : 1));
  return out;
}

const driversOf = async (db: Db, requestId: number) => (await driversOfRequests(db, [requestId])).get(requestId) ?? [];

/** What staff see of orders' drivers (the desk, the 배차 board): each licence as last checked, masked. */
export async function orderDriverViews(db: Db, requestIds: readonly number[]): Promise<Map<number, LicenceView[]>> {
  const found = await driversOfRequests(db, requestIds);
  return new Map([...found].map(([id, list]) => [id, list.map(toLicenceView)]));
}

/**
 * Before a delivery or a swap's delivery: every driver of the order asked again; a licence that
 * lapsed since stops the handover (the refusal, else null). An order placed before licence checks
 * existed names no driver, and nothing is asked.
 */
export async function handoverLicenceCheck(ctx: LicenceContext, requestId: number, purpose: 'DELIVERY' | 'SWAP_DELIVERY', handoverId: number): Promise<string | null> {
  const drivers = await driversOf(ctx.db, requestId);
  if (!drivers.length) return null;
  const checked = await checkAgain(ctx, drivers, purpose, { type: 'subscription_handover', id: handoverId });
  return handoverLicenceRefusal(checked.map(asDriver), todayInKorea(ctx.clock.now()));
}
