import { createHash } from 'node:crypto';
import { and, asc, desc, eq, lte } from 'drizzle-orm';
import { clashes, inclusiveSpan } from '../../domain/availability';
import { availableDurations, feeForTerm, type Car } from '../../domain/car';
import { addDays, dotDate, koreaDate, todayInKorea } from '../../domain/dates';
import {
  EXTENSION_RULE_LINES, NO_EXTRAS, feeOfMonth, extensionChoices, extensionQuote, extensionWindow,
  type ExtensionQuote, type ExtensionSubscription, type OptionExtras, type TermFee,
} from '../../domain/extension';
import { annexDocument, annexFileName, type AnnexInput } from '../../domain/extension-annex';
import { won } from '../../domain/money';
import { priceConsentRefusal } from '../../domain/price-consent';
import { feeChanges } from '../db/fee-changes';
import { termEnd } from '../../domain/subscriptions';
import { customerActor, recordAudit } from '../audit/audit';
import { inTransaction, type Db } from '../db/client';
import { subscriptionExtensionAnnexes, subscriptionExtensions, subscriptionRequests, subscriptionSwaps, subscriptions, users } from '../db/schema';
import { carOnDay } from '../../domain/swap-cars';
import { conflict, notFound, unprocessable } from '../errors';
import { enqueue, type Job, type JobSpec } from '../jobs/queue';
import { emit } from '../notifications/events';
import { scheduleMonth } from '../billing/subscription-billing';
import { carById } from '../catalogue/catalogue';
import { timelines } from '../catalogue/inventory';
import { lockCar } from './availability';
import { issueOnce, type ContractContext } from './contracts';
import { renderContractPdf } from './contract-pdf';
import { ownSubscription, type OwnSubscription } from '../billing/own-subscription';
import { rowTime } from '../jobs/clock';

/*
 * 구독 연장 (extension): the quote, the confirmation (the term, end date and billing follow at once),
 * and the 부속 계약서 issued once per extension by a job. The rule is src/domain/extension.ts;
 * docs/decisions/extension.md.
 */

export const ANNEX_JOB = 'subscription-extension-annex';
const annexKey = (extensionId: number) => `annex:ext:${extensionId}`;
const annexJob = (extensionId: number, now: Date): JobSpec => ({ kind: ANNEX_JOB, key: annexKey(extensionId), payload: { extensionId }, runAt: now, maxAttempts: 8 });

/** A choice with the day the car is taken from inside its span (null: free). */
type ExtensionChoice = ExtensionQuote & { taken_from: string | null };

/** GET /subscriptions/{id}/extension: the terms one may add today and, with ?months=, that quote. */
export interface ExtensionQuoteAnswer {
  choices: ExtensionChoice[];
  quote: ExtensionChoice | null;
  /** The days the extension may be asked for (end date − 60 … end date − 7). */
  opens: string;
  closes: string;
  rule: string[];
}

/** POST /subscriptions/{id}/extension: the extension as confirmed (a repeat answers the same). */
export interface ExtensionConfirmAnswer {
  extension: ExtensionQuote & { id: number; created_at: string; annex_path: string };
  end_date: string;
}

type ExtensionRow = typeof subscriptionExtensions.$inferSelect;

type Found = OwnSubscription;

/** The car the subscription holds on a day (after a 차량 교체, the new one; docs/decisions/swap.md). */
async function carOn(db: Db, f: Pick<Found, 'sub' | 'request'>, day: string): Promise<number> {
  const swaps = await db.select().from(subscriptionSwaps).where(and(eq(subscriptionSwaps.subscriptionId, f.sub.id), eq(subscriptionSwaps.status, 'CONFIRMED')));
  return carOnDay(f.request.carId, swaps, day);
}

/** The car held at the subscription's end: the one extended. */
const carAtEnd = (db: Db, f: Found) => carOn(db, f, f.sub.endDate);

const ruleInput = (f: Found): ExtensionSubscription => ({
  startDate: f.sub.startDate, endDate: f.sub.endDate, termMonths: f.request.month + f.sub.extendedMonths,
  isActive: f.sub.isActive, billingStatus: f.sub.billingStatus, exitDate: f.sub.exitDate,
});

/** The car's terms that have a fee today. */
const termFees = (car: Car): TermFee[] => availableDurations(car).map((months) => ({ months, fee: feeForTerm(car, months)! }));

/** The order's monthly option extras as stored with it (none on orders from before options). */
function optionExtras(f: Found): OptionExtras {
  const q = f.request.options?.quote;
  return q ? { mileage_monthly: q.mileage_monthly, young_driver_monthly: q.young_driver_monthly, extra_drivers_monthly: q.extra_drivers_monthly } : NO_EXTRAS;
}

/** The first day inside the quote's span that the car is taken by another subscription or a live hold (null: free). */
async function takenFrom(db: Db, f: Found, q: Pick<ExtensionQuote, 'from_date' | 'new_end_date'>, now: Date): Promise<string | null> {
  const carId = await carAtEnd(db, f);
  const line = (await timelines(db, [carId], now, f.request.id)).get(carId)!;
  const hit = clashes(line, inclusiveSpan(q.from_date, q.new_end_date))[0];
  if (!hit) return null;
  return hit.start > q.from_date ? hit.start : q.from_date;
}

const takenMessage = (day: string, months: number) =>
  `이 차량은 ${dotDate(day)}부터 다른 구독 일정이 있어 ${months}개월 연장할 수 없습니다. ${dotDate(addDays(day, -1))} 전에 끝나는 더 짧은 기간을 선택하거나 고객센터로 문의해주세요.`;

export async function quoteExtension(ctx: { db: Db; clock: { now(): Date } }, subscriptionId: number, userId: number, months: number | undefined): Promise<ExtensionQuoteAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  const f = await ownSubscription(ctx.db, subscriptionId, userId);
  const car = await carById(ctx.db, await carAtEnd(ctx.db, f));
  const all = extensionChoices(ruleInput(f), termFees(car), optionExtras(f), today);
  if (!all.ok) throw conflict(all.reason);
  const choices: ExtensionChoice[] = [];
  for (const c of all.choices) choices.push({ ...c, taken_from: await takenFrom(ctx.db, f, c, now) });
  let quote: ExtensionChoice | null = null;
  if (months !== undefined) {
    const a = extensionQuote(ruleInput(f), termFees(car), optionExtras(f), months, today);
    if (!a.ok) throw a.status === 409 ? conflict(a.reason) : unprocessable(a.reason, { months: [a.reason] });
    quote = choices.find((c) => c.months === months) ?? null;
  }
  return { choices, quote, ...extensionWindow(f.sub.endDate), rule: EXTENSION_RULE_LINES };
}

const toQuote = (e: ExtensionRow, termMonths: number): ExtensionQuote => ({
  months: e.months, current_end_date: addDays(e.fromDate, -1), from_date: e.fromDate, new_end_date: e.toDate,
  base_fee: e.baseFee, option_extras: e.optionExtras, monthly_fee: e.monthlyFee, first_month: e.firstMonth, last_month: e.lastMonth, term_months: termMonths,
});

const annexPath = (e: Pick<ExtensionRow, 'id' | 'subscriptionId'>) => `/subscriptions/${e.subscriptionId}/extensions/${e.id}/annex`;

const confirmAnswer = (e: ExtensionRow, endDate: string): ExtensionConfirmAnswer => ({
  extension: { ...toQuote(e, e.lastMonth), id: e.id, created_at: e.createdAt.toISOString(), annex_path: annexPath(e) },
  end_date: endDate,
});

/**
 * 연장 확정: on the subscription's row lock, the quote is made again from today's prices; a fee
 * other than the one the customer was quoted is 409 (nothing changed). The car must be free for
 * the added span (its row locked as orders lock it). Then, in one transaction: the extension row,
 * the subscription's end date and months, the next month's charge when the original term was all
 * paid (the same job key as every monthly charge), the audit row, the messages and the annex job.
 * A repeat — the end date it was quoted for already extended, or (without it) the same months and
 * fee confirmed today — answers the done extension.
 */
export async function confirmExtension(
  ctx: { db: Db; clock: { now(): Date } },
  subscriptionId: number,
  userId: number,
  input: { months: number; quoted_fee: number; end_date?: string; price_consent?: number },
): Promise<ExtensionConfirmAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  return inTransaction(ctx.db, async (tx) => {
    const f = await ownSubscription(tx, subscriptionId, userId, true);
    const done = await tx.select().from(subscriptionExtensions).where(eq(subscriptionExtensions.subscriptionId, subscriptionId)).orderBy(desc(subscriptionExtensions.id));
    if (input.end_date !== undefined) {
      const repeat = done.find((e) => e.fromDate === addDays(input.end_date!, 1));
      if (repeat) return confirmAnswer(repeat, f.sub.endDate);
      if (input.end_date !== f.sub.endDate) throw conflict('구독 종료일이 바뀌었습니다. 새로고침한 뒤 연장 견적을 다시 확인해주세요.');
    } else {
      const latest = done[0];
      if (latest && latest.months === input.months && latest.monthlyFee === input.quoted_fee && koreaDate(latest.createdAt) === today) return confirmAnswer(latest, f.sub.endDate);
    }
    const car = await carById(tx, await carAtEnd(tx, f));
    const a = extensionQuote(ruleInput(f), termFees(car), optionExtras(f), input.months, today);
    if (!a.ok) throw a.status === 409 ? conflict(a.reason) : unprocessable(a.reason, { months: [a.reason] });
    const q = a.quote;
    if (q.monthly_fee !== input.quoted_fee) {
      throw conflict(`연장 월 구독료가 ${won(q.monthly_fee)}으로 바뀌었습니다. 바뀐 견적을 확인한 뒤 다시 확정해주세요.`, { quoted_fee: ['견적과 현재 월 구독료가 다릅니다.'] }, { quote: q });
    }
    // 가격 변경 동의: the added months at another fee than the term's last month need the customer's explicit consent to it.
    const currentFee = feeOfMonth(f.request.month + f.sub.extendedMonths, f.request.fee, await feeChanges(tx, subscriptionId));
    const consent = priceConsentRefusal(currentFee, q.monthly_fee, input.price_consent);
    if (consent) throw unprocessable(consent, { price_consent: [consent] });
    // One plate, one customer: orders and confirmations of the car wait on its row.
    await lockCar(tx, car.id);
    const taken = await takenFrom(tx, f, q, now);
    if (taken) throw conflict(takenMessage(taken, q.months), { months: ['이 기간에 차량의 다른 구독 일정이 있습니다.'] }, { taken_from: taken });
    const [row] = await tx
      .insert(subscriptionExtensions)
      .values({
        subscriptionId, userId, months: q.months, monthlyFee: q.monthly_fee, baseFee: q.base_fee, optionExtras: q.option_extras,
        firstMonth: q.first_month, lastMonth: q.last_month, fromDate: q.from_date, toDate: q.new_end_date, createdAt: now,
      })
      .returning();
    const [after] = await tx
      .update(subscriptions)
      .set({ endDate: q.new_end_date, extendedMonths: f.sub.extendedMonths + q.months, updatedAt: rowTime() })
      .where(eq(subscriptions.id, subscriptionId))
      .returning();
    // The original term all paid: its follow-up found no next month, so the first added month is scheduled now.
    // (Otherwise the paid follow-up of the last unpaid month schedules onward; the job key makes either once.)
    if (f.sub.paidMonths >= q.first_month - 1 && f.sub.billingStatus === 'ACTIVE') await scheduleMonth(tx, after, q.term_months, q.first_month, q.monthly_fee, now);
    const strip = ({ billingKey: _k, ...rest }: typeof f.sub) => rest;
    await recordAudit(tx, await customerActor(tx, userId), {
      action: 'update', entity: 'subscription', entityId: subscriptionId, before: strip(f.sub), after: { ...strip(after), extension: { id: row.id, ...q } },
    });
    const facts = { subscriptionId, extensionId: row.id, months: q.months, newEndDate: q.new_end_date, monthlyFee: q.monthly_fee, firstMonth: q.first_month };
    await emit(tx, `subscription.extended:${row.id}`, { type: 'subscription.extended', userId, ...facts, fromDate: q.from_date }, now);
    await emit(tx, `staff.subscription_extended:${row.id}`, { type: 'staff.subscription_extended', ...facts }, now);
    await enqueue(tx, annexJob(row.id, now));
    return confirmAnswer(row, after.endDate);
  });
}

// ── 부속 계약서 ───────────────────────────────────────────────────────────────

export type AnnexRow = typeof subscriptionExtensionAnnexes.$inferSelect;

/** The annex's input: the extension, its subscription and order, the car, the customer and the company. */
export async function annexInput(db: Db, company: ContractContext['config']['company'], extensionId: number): Promise<AnnexInput> {
  const [e] = await db.select().from(subscriptionExtensions).where(eq(subscriptionExtensions.id, extensionId));
  if (!e) throw notFound('연장 내역을 찾을 수 없습니다.');
  const [{ sub, request: r }] = await db
    .select({ sub: subscriptions, request: subscriptionRequests })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, e.subscriptionId));
  const earlier = await db.select({ id: subscriptionExtensions.id }).from(subscriptionExtensions).where(and(eq(subscriptionExtensions.subscriptionId, e.subscriptionId), lte(subscriptionExtensions.id, e.id))).orderBy(asc(subscriptionExtensions.id));
  // The car extended: the one held when the added months begin (after a 차량 교체, the new car).
  const car = await carById(db, await carOn(db, { sub, request: r }, e.fromDate));
  const [u] = await db.select({ name: users.name, mobile: users.mobile, email: users.email, username: users.username }).from(users).where(eq(users.id, sub.userId));
  return {
    extensionId: e.id, ordinal: earlier.length, requestId: r.id, subscriptionId: sub.id, confirmedAt: e.createdAt, company,
    customer: { name: u?.name?.trim() || u?.username || '고객', phone: u?.mobile ?? null, email: u?.email ?? null },
    car: { brand: car.model.brand.name, model: car.model.name, subModel: car.sub_model, trim: car.trim, plate: car.license_plate, colour: car.color },
    original: { months: r.month, startDate: sub.startDate, endDate: termEnd(sub.startDate, r.month), monthlyFee: r.fee },
    previousEndDate: addDays(e.fromDate, -1),
    extension: { months: e.months, fromDate: e.fromDate, newEndDate: e.toDate, baseFee: e.baseFee, optionExtras: e.optionExtras, monthlyFee: e.monthlyFee, firstMonth: e.firstMonth, lastMonth: e.lastMonth },
  };
}

async function annexPdf(input: AnnexInput): Promise<{ pdf: Uint8Array; sha256: string }> {
  const pdf = await renderContractPdf(annexDocument(input), { at: input.confirmedAt, id: `subscription-extension:${input.extensionId}` });
  return { pdf, sha256: createHash('sha256').update(pdf).digest('hex') };
}

async function storedAnnex(db: Db, extensionId: number): Promise<AnnexRow | undefined> {
  const [row] = await db.select().from(subscriptionExtensionAnnexes).where(eq(subscriptionExtensionAnnexes.extensionId, extensionId));
  return row;
}

/** Issues an extension's annex once (a concurrent issue keeps the first row); the row never changes. */
async function issueAnnex(ctx: ContractContext, extensionId: number): Promise<AnnexRow | null> {
  let e: ExtensionRow | undefined;
  return issueOnce(ctx, `[annex] extension ${extensionId}`, {
    stored: () => storedAnnex(ctx.db, extensionId),
    input: async () => {
      [e] = await ctx.db.select().from(subscriptionExtensions).where(eq(subscriptionExtensions.id, extensionId));
      return e ? annexInput(ctx.db, ctx.config.company, extensionId) : null;
    },
    render: async (input) => (await annexPdf(input)).pdf,
    insert: (file) => ctx.db.insert(subscriptionExtensionAnnexes).values({ extensionId, userId: e!.userId, ...file, createdAt: e!.createdAt }).onConflictDoNothing({ target: subscriptionExtensionAnnexes.extensionId }),
  });
}

export async function annexJobHandler(ctx: ContractContext, job: Job): Promise<void> {
  await issueAnnex(ctx, Number(job.payload.extensionId));
}

/** The owner's annex to download (another's, or an extension of another subscription, is 404); issued now when its job has not run yet. */
export async function annexForDownload(ctx: ContractContext, subscriptionId: number, extensionId: number, userId: number): Promise<{ row: AnnexRow; fileName: string }> {
  const [e] = await ctx.db.select().from(subscriptionExtensions).where(eq(subscriptionExtensions.id, extensionId));
  if (!e || e.subscriptionId !== subscriptionId || e.userId !== userId) throw notFound('부속 계약서를 찾을 수 없습니다.');
  const row = await issueAnnex(ctx, extensionId);
  if (!row) throw notFound('부속 계약서를 찾을 수 없습니다.');
  const input = await annexInput(ctx.db, ctx.config.company, extensionId);
  return { row, fileName: annexFileName(input.requestId, input.ordinal) };
}
