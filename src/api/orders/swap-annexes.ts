import { and, eq, isNotNull, lte, or } from 'drizzle-orm';
import { monthlyChargeDate } from '../../domain/payments';
import { swapAnnexDocument, swapAnnexFileName, type SwapAnnexInput } from '../../domain/swap-annex';
import { termEnd } from '../../domain/subscriptions';
import type { Db } from '../db/client';
import { subscriptionRequests, subscriptionSwapAnnexes, subscriptionSwaps, subscriptions, users } from '../db/schema';
import { notFound } from '../errors';
import type { Job, JobSpec } from '../jobs/queue';
import { carById } from '../catalogue/catalogue';
import type { SwapRow } from './swap-views';
import { issueOnce, type ContractContext } from './contracts';
import { renderContractPdf } from './contract-pdf';

/** 차량 교체 부속 계약서: issued once by a job after the swap is applied, and downloaded by its owner. */

export const SWAP_ANNEX_JOB = 'subscription-swap-annex';
export const swapAnnexJob = (swapId: number, now: Date): JobSpec => ({ kind: SWAP_ANNEX_JOB, key: `annex:swap:${swapId}`, payload: { swapId }, runAt: now, maxAttempts: 8 });

export type SwapAnnexRow = typeof subscriptionSwapAnnexes.$inferSelect;

/** The annex's input: the swap, its subscription and order, both cars, the customer and the company. */
async function swapAnnexInput(db: Db, company: ContractContext['config']['company'], swapId: number): Promise<SwapAnnexInput> {
  const [s] = await db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
  if (!s) throw notFound('차량 교체 내역을 찾을 수 없습니다.');
  const [{ sub, request: r }] = await db
    .select({ sub: subscriptions, request: subscriptionRequests })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, s.subscriptionId));
  const earlier = await db
    .select({ id: subscriptionSwaps.id })
    .from(subscriptionSwaps)
    // Swaps ever confirmed (one cancelled later keeps its number: its annex was issued under it).
    .where(and(eq(subscriptionSwaps.subscriptionId, s.subscriptionId), or(eq(subscriptionSwaps.status, 'CONFIRMED'), isNotNull(subscriptionSwaps.cancelledAt)), lte(subscriptionSwaps.id, s.id)));
  const carOf = async (id: number) => {
    const c = await carById(db, id);
    return { brand: c.model.brand.name, model: c.model.name, subModel: c.sub_model, trim: c.trim, plate: c.license_plate, colour: c.color };
  };
  const [u] = await db.select({ name: users.name, mobile: users.mobile, email: users.email, username: users.username }).from(users).where(eq(users.id, sub.userId));
  const term = r.month + sub.extendedMonths;
  return {
    swapId: s.id, ordinal: Math.max(1, earlier.length), requestId: r.id, subscriptionId: sub.id, confirmedAt: s.updatedAt, company,
    customer: { name: u?.name?.trim() || u?.username || '고객', phone: u?.mobile ?? null, email: u?.email ?? null },
    fromCar: await carOf(s.fromCarId), toCar: await carOf(s.toCarId),
    // The term as it stood at the swap (an early exit later shortens the end; the annex keeps the swap's facts).
    term: { months: term, startDate: sub.startDate, endDate: termEnd(sub.startDate, term) },
    swap: {
      swapDate: s.swapDate, billingMonth: s.billingMonth, firstNewMonth: s.firstNewMonth, newFeeFrom: s.firstNewMonth <= term ? monthlyChargeDate(sub.startDate, s.firstNewMonth) : null,
      oldFee: s.oldFee, newFee: s.newFee, baseFee: s.baseFee, optionExtras: s.optionExtras, prorateDays: s.prorateDays, monthDays: s.monthDays, adjustment: s.adjustment,
      prepaymentCredit: s.prepaymentCredit, creditLastMonth: r.month,
    },
  };
}

async function storedSwapAnnex(db: Db, swapId: number): Promise<SwapAnnexRow | undefined> {
  const [row] = await db.select().from(subscriptionSwapAnnexes).where(eq(subscriptionSwapAnnexes.swapId, swapId));
  return row;
}

/** Issues a CONFIRMED swap's annex once (a concurrent issue keeps the first row); the row never changes. */
async function issueSwapAnnex(ctx: ContractContext, swapId: number): Promise<SwapAnnexRow | null> {
  let s: SwapRow | undefined;
  return issueOnce(ctx, `[annex] swap ${swapId}`, {
    stored: () => storedSwapAnnex(ctx.db, swapId),
    input: async () => {
      [s] = await ctx.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
      return s?.status === 'CONFIRMED' ? swapAnnexInput(ctx.db, ctx.config.company, swapId) : null;
    },
    render: (input) => renderContractPdf(swapAnnexDocument(input), { at: input.confirmedAt, id: `subscription-swap:${swapId}` }),
    insert: (file) => ctx.db.insert(subscriptionSwapAnnexes).values({ swapId, userId: s!.userId, ...file, createdAt: s!.updatedAt }).onConflictDoNothing({ target: subscriptionSwapAnnexes.swapId }),
  });
}

export async function swapAnnexJobHandler(ctx: ContractContext, job: Job): Promise<void> {
  await issueSwapAnnex(ctx, Number(job.payload.swapId));
}

/** The owner's annex of a confirmed swap (another's, or a swap of another subscription, is 404); issued now when its job has not run yet. */
export async function swapAnnexForDownload(ctx: ContractContext, subscriptionId: number, swapId: number, userId: number): Promise<{ row: SwapAnnexRow; fileName: string }> {
  const [s] = await ctx.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
  if (!s || s.subscriptionId !== subscriptionId || s.userId !== userId) throw notFound('부속 계약서를 찾을 수 없습니다.');
  const row = await issueSwapAnnex(ctx, swapId);
  if (!row) throw notFound('부속 계약서를 찾을 수 없습니다.');
  const input = await swapAnnexInput(ctx.db, ctx.config.company, swapId);
  return { row, fileName: swapAnnexFileName(input.requestId, input.ordinal) };
}
