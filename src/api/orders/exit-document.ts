import { and, eq } from 'drizzle-orm';
import { exitDocument, exitDocumentFileName, type ExitDocumentInput } from '../../domain/exit-document';
import { carOnDay } from '../../domain/swap-cars';
import { termEnd } from '../../domain/subscriptions';
import type { Db } from '../db/client';
import { subscriptionExitDocuments, subscriptionRequests, subscriptionSwaps, users } from '../db/schema';
import { notFound } from '../errors';
import { attemptsOf } from '../billing/ledger';
import { exitSubscription, storedQuote, type Found } from '../billing/early-exit';
import { carById } from '../catalogue/catalogue';
import { issueOnce, type ContractContext } from './contracts';
import { renderContractPdf } from './contract-pdf';

// ── 중도 해지 확인서 (issue 49) ─────────────────────────────────────────────────

export type ExitDocumentRow = typeof subscriptionExitDocuments.$inferSelect;

/** The paid (or since refunded) fee of a done exit; undefined when nothing was charged. */
const paidExitFee = async (db: Db, subscriptionId: number) =>
  (await attemptsOf(db, 'subscription', subscriptionId, 'SUBSCRIPTION_EARLY_EXIT')).find((a) => a.status === 'PAID' || a.status === 'PARTIAL_CANCELLED' || a.status === 'CANCELLED');

/**
 * The 확인서's input, read back from what the exit stored (the exit day, the fee's charge): null
 * while the subscription has not ended early. `now` dates a document of an exit without a charge.
 */
async function exitDocumentInput(db: Db, company: ContractContext['config']['company'], f: Found, now: Date): Promise<ExitDocumentInput | null> {
  if (!f.sub.exitDate || f.sub.billingStatus !== 'CANCELLED') return null;
  const payment = await paidExitFee(db, f.sub.id);
  const [r] = await db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, f.sub.requestId));
  const swaps = await db.select().from(subscriptionSwaps).where(and(eq(subscriptionSwaps.subscriptionId, f.sub.id), eq(subscriptionSwaps.status, 'CONFIRMED')));
  const car = await carById(db, carOnDay(r.carId, swaps, f.sub.exitDate));
  const [u] = await db.select({ name: users.name, mobile: users.mobile, email: users.email, username: users.username }).from(users).where(eq(users.id, f.sub.userId));
  return {
    requestId: r.id,
    subscriptionId: f.sub.id,
    settledAt: payment?.paidAt ?? now,
    company,
    customer: { name: u?.name?.trim() || u?.username || '고객', phone: u?.mobile ?? null, email: u?.email ?? null },
    car: { brand: car.model.brand.name, model: car.model.name, subModel: car.sub_model, trim: car.trim, plate: car.license_plate, colour: car.color },
    term: { months: f.term, startDate: f.sub.startDate, endDate: termEnd(f.sub.startDate, f.term) },
    quote: storedQuote(f.sub.exitDate, f.term, f.fee, payment, f.extensions),
    payment: payment ? { id: payment.id, paidAt: payment.paidAt } : null,
  };
}

/**
 * The owner's 중도 해지 확인서 (another's subscription, or one not ended early, is 404): issued once
 * on its first download (its PDF and SHA-256 stored, never changed), the same bytes afterwards.
 */
export async function exitDocumentForDownload(ctx: ContractContext & { clock: { now: () => Date } }, subscriptionId: number, userId: number): Promise<{ row: ExitDocumentRow; fileName: string }> {
  const f = await exitSubscription(ctx.db, subscriptionId, userId);
  const stored = async () => (await ctx.db.select().from(subscriptionExitDocuments).where(eq(subscriptionExitDocuments.subscriptionId, subscriptionId)))[0];
  let input: ExitDocumentInput | null = null;
  const row = await issueOnce(ctx, `[exit-document] subscription ${subscriptionId}`, {
    stored,
    input: async () => (input = await exitDocumentInput(ctx.db, ctx.config.company, f, ctx.clock.now())),
    render: (i) => renderContractPdf(exitDocument(i), { at: i.settledAt, id: `subscription-exit:${subscriptionId}` }),
    insert: (file) => ctx.db.insert(subscriptionExitDocuments).values({ subscriptionId, userId: f.sub.userId, ...file, createdAt: input?.settledAt ?? ctx.clock.now() }).onConflictDoNothing({ target: subscriptionExitDocuments.subscriptionId }),
  });
  if (!row) throw notFound('중도 해지 확인서가 없습니다. 중도 해지가 확정된 구독에만 발행됩니다.');
  const [r] = await ctx.db.select({ id: subscriptionRequests.id }).from(subscriptionRequests).where(eq(subscriptionRequests.id, f.sub.requestId));
  return { row, fileName: exitDocumentFileName(r.id) };
}
