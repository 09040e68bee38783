import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { fuelLegs, fuelShortfall, type FuelShortfall } from '../../domain/fuel';
import { won } from '../../domain/money';
import { paidAmount, paymentIds } from '../../domain/payments';
import { unusedPrepayment } from '../../domain/prepayment';
import { prepaymentRefundOf, settle, settlementAcknowledgement, SETTLEMENT_ACK_WAIT_HOURS, type Damage, type SettlementAcknowledgement, type SettlementResult, type SettlementView } from '../../domain/settlement';
import { dotDate, koreaDate, koreaTime } from '../../domain/dates';
import { carOptionPrices } from '../../domain/subscription-price';
import { recordAudit } from '../audit/audit';
import type { StaffActor } from '../auth/guards';
import { inTransaction, type Db } from '../db/client';
import { brands, cars, companySubscriptionMonths, models, paymentRefunds, subscriptionHandovers, subscriptionSettlements } from '../db/schema';
import { conflict, notFound } from '../errors';
import { emit } from '../notifications/events';
import type { ChargeOutcome, PaymentContext } from '../payment-context';
import { executeCharge } from './charges';
import { declinedOrFine } from './errors';
import { attemptsOf, recordCharge, toPaymentView, toRefundView } from './ledger';
import { confirmedSwapsOf, readingsOf, settlementOn, statementCompany, subscriptionFor, withArithmetic, type Found } from './mileage';
import { billedToCompany, billToCompanyStatement } from './subscription-billing';
import { refundPayment } from './refunds';
import { requireOwner } from './own-subscription';

/**
 * 반납 정산 (docs/decisions/settlement.md): at the return, staff enter damages; the overage comes
 * from the RETURN reading and the fuel or charge shortfall from the handover records (each car's,
 * after a swap: src/domain/fuel.ts). The rule (src/domain/settlement.ts)
 * takes it from the 보증금 first; the rest is charged to the card once (sub-{id}-settle, -r1… after a
 * known decline), or the rest of the deposit is refunded once from the first payment (refund key
 * settle:deposit:{id}). The settlement row is unique per subscription and written under the
 * subscription's row lock, so retries and two replicas settle once.
 */

type SettlementRow = typeof subscriptionSettlements.$inferSelect;

const depositRefundKey = (subscriptionId: number) => `settle:deposit:${subscriptionId}`;

export interface SettlementEntry {
  damages: Damage[];
}

/** The customer's acknowledgement of the subscription's own return record, at `now`. */
async function acknowledgementOf(db: Db, subscriptionId: number, now: Date): Promise<SettlementAcknowledgement> {
  const [row] = await db
    .select({ recordedAt: subscriptionHandovers.recordedAt, acknowledgedAt: subscriptionHandovers.acknowledgedAt })
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), eq(subscriptionHandovers.kind, 'RETURN'), isNull(subscriptionHandovers.swapId), eq(subscriptionHandovers.status, 'DONE')));
  return settlementAcknowledgement(row?.recordedAt ? { recordedAt: row.recordedAt, acknowledgedAt: row.acknowledgedAt } : null, now);
}

/** The fuel shortfall from the subscription's recorded handovers (its own and its swaps' pairs), each car named. */
async function fuelOf(db: Db, f: Found, swaps: Awaited<ReturnType<typeof confirmedSwapsOf>>): Promise<FuelShortfall> {
  const records = await db
    .select({ kind: subscriptionHandovers.kind, swapId: subscriptionHandovers.swapId, fuelPercent: subscriptionHandovers.fuelPercent })
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.subscriptionId, f.sub.id), eq(subscriptionHandovers.status, 'DONE')));
  const legs = fuelLegs(f.orderCarId, swaps, records.flatMap((r) => (r.fuelPercent === null ? [] : [{ kind: r.kind, swapId: r.swapId, fuelPercent: r.fuelPercent }])));
  const ids = [...new Set(legs.map((l) => l.carId))];
  const names = ids.length > 1
    ? await db
        .select({ id: cars.id, name: sql<string>`trim(${brands.name} || ' ' || ${models.name} || coalesce(' ' || ${cars.licensePlate}, ''))` })
        .from(cars)
        .innerJoin(models, eq(models.id, cars.modelId))
        .innerJoin(brands, eq(brands.id, models.brandId))
        .where(inArray(cars.id, ids))
    : [];
  return fuelShortfall(legs, (id) => names.find((n) => n.id === id)?.name ?? '');
}

/**
 * The first payment (it holds the 보증금 and the 선납금) and what it still holds (a refund of it lowers
 * it); the order's quoted 보증금. The rule takes the deposit and the unused 선납금 up to what it holds.
 */
async function firstPaymentOf(db: Db, f: Found): Promise<{ deposit: number; held: number; paymentId: string | null }> {
  const quoted = f.options?.quote.deposit ?? 0;
  // On 후불 the first payment (with the deposit) was billed to the company's statement: it holds what was billed.
  if (statementCompany(f)) {
    const [m1] = await db.select({ amount: companySubscriptionMonths.amount }).from(companySubscriptionMonths).where(and(eq(companySubscriptionMonths.subscriptionId, f.sub.id), eq(companySubscriptionMonths.month, 1)));
    return { deposit: Math.max(0, quoted), held: m1?.amount ?? 0, paymentId: null };
  }
  const first = (await attemptsOf(db, 'subscription_request', f.sub.requestId, 'SUBSCRIPTION_FIRST')).find((p) => paidAmount(p) > 0);
  if (!first) return { deposit: 0, held: 0, paymentId: null };
  return { deposit: Math.max(0, quoted), held: paidAmount(first), paymentId: first.id };
}

/** The unused 선납금 by the rule (src/domain/prepayment.ts): the order's 선납금 over its months, the end date as it stands (moved by 중도 해지). */
const prepaymentOf = (f: Found) =>
  unusedPrepayment(f.options ? { prepayment: f.options.quote.prepayment, termMonths: f.options.quote.month, startDate: f.sub.startDate, endDate: f.sub.endDate } : null);

/** The contract's 자기부담금: the order's; a pre-options order's contract says "차량별로 안내된 금액", the car's own. */
const deductibleOf = (f: Found) => f.options?.prices.deductible ?? carOptionPrices({ option_prices: f.car.optionPrices, subscription_fee_minimum: f.car.feeMin }).deductible;

/** The rule on what is recorded now (409 without the HANDOVER and RETURN readings, or with an overage charge in flight). */
async function compute(db: Db, f: Found, entry: SettlementEntry, now: Date) {
  // The unused 선납금 counts from the end date a 중도 해지 moves once its fee is paid: not before.
  if (f.sub.exitDate && f.sub.billingStatus !== 'CANCELLED') throw conflict('중도 해지 수수료 결제를 확인하고 있습니다. 해지가 끝난 뒤 정산해주세요.');
  const readings = await readingsOf(db, f.sub.id);
  if (!readings.some((r) => r.source === 'RETURN')) throw conflict('반납 주행거리를 먼저 기록해야 정산할 수 있습니다.');
  // After a swap the km are summed over the subscription's cars (docs/decisions/mileage.md, Swaps).
  const swaps = await confirmedSwapsOf(db, f.sub.id);
  const mileage = settlementOn(f, readings, true, swaps);
  if (!mileage) throw conflict('인도 시 주행거리가 기록되어 있지 않아 정산할 수 없습니다. 인도 주행거리를 먼저 기록해주세요.');
  const overageCharges = await attemptsOf(db, 'subscription', f.sub.id, 'SUBSCRIPTION_MILEAGE');
  if (overageCharges.some((p) => p.status === 'PENDING')) throw conflict('초과 주행 요금 결제를 확인하고 있습니다. 잠시 후 다시 시도해주세요.');
  // An overage charged on its own counts as paid: by card, or (후불) billed to the company's statement.
  const overagePaid = overageCharges.reduce((s, p) => s + paidAmount(p), 0) + (statementCompany(f) ? await billedToCompany(db, f.sub.id, 'MILEAGE') : 0);
  const first = await firstPaymentOf(db, f);
  const deductible = deductibleOf(f);
  const fuel = await fuelOf(db, f, swaps);
  const arithmetic = withArithmetic(mileage);
  const result = settle({
    deposit: first.deposit, held: first.held, prepayment: prepaymentOf(f), overage: mileage.amount, overagePaid, overageArithmetic: arithmetic.arithmetic, damages: entry.damages, deductible,
    fuelShortfallPercent: fuel.percent, fuelArithmetic: fuel.arithmetic,
  });
  return { mileage: arithmetic, overagePaid, first, deductible, fuel, result, acknowledgement: await acknowledgementOf(db, f.sub.id, now) };
}

const previewView = (f: Found, entry: SettlementEntry, c: Awaited<ReturnType<typeof compute>>): SettlementView => ({
  subscription_id: f.sub.id, status: 'PREVIEW', ...pick(c.result), deductible: c.deductible, damages: entry.damages, fuel_shortfall_percent: c.fuel.percent, fuel_arithmetic: c.fuel.arithmetic,
  mileage_arithmetic: c.mileage.arithmetic, acknowledgement: c.acknowledgement, payment: null, refund: null, created_at: null, completed_at: null,
});

const pick = (r: SettlementResult) => ({ lines: r.lines, total: r.total, deposit: r.deposit, prepayment_refund: r.prepayment_refund, from_deposit: r.from_deposit, to_charge: r.to_charge, to_refund: r.to_refund, summary: r.summary });

async function storedView(db: Db, row: SettlementRow): Promise<SettlementView> {
  const latest = row.toCharge > 0 ? (await attemptsOf(db, 'subscription', row.subscriptionId, 'SUBSCRIPTION_SETTLEMENT')).at(-1) : undefined;
  const [refund] = row.toRefund > 0 ? await db.select().from(paymentRefunds).where(eq(paymentRefunds.key, depositRefundKey(row.subscriptionId))) : [];
  return {
    subscription_id: row.subscriptionId, status: row.status, lines: row.lines, total: row.total, deposit: row.deposit, prepayment_refund: prepaymentRefundOf(row.lines), from_deposit: row.fromDeposit, to_charge: row.toCharge, to_refund: row.toRefund,
    summary: row.summary, deductible: row.deductible, damages: row.damages, fuel_shortfall_percent: row.fuelShortfallPercent,
    fuel_arithmetic: row.lines.find((l) => l.kind === 'FUEL')?.detail ?? null, mileage_arithmetic: row.mileage.arithmetic, acknowledgement: null,
    payment: latest ? toPaymentView(latest) : null, refund: refund ? toRefundView(refund) : null,
    created_at: row.createdAt.toISOString(), completed_at: row.completedAt?.toISOString() ?? null,
  };
}

const settlementOf = async (db: Db, subscriptionId: number, lock = false) => {
  const q = db.select().from(subscriptionSettlements).where(eq(subscriptionSettlements.subscriptionId, subscriptionId));
  return (lock ? await q.for('update') : await q)[0];
};

/** GET /admin/subscriptions/{id}/settlement: the stored settlement, or a preview on what staff entered. */
export async function previewSettlement(ctx: PaymentContext, subscriptionId: number, entry: SettlementEntry): Promise<SettlementView> {
  const found = await subscriptionFor(ctx.db, subscriptionId);
  if (!found) throw notFound('구독을 찾을 수 없습니다.');
  const row = await settlementOf(ctx.db, subscriptionId);
  if (row) return storedView(ctx.db, row);
  return previewView(found, entry, await compute(ctx.db, found, entry, ctx.clock.now()));
}

/** GET /subscriptions/{id}/settlement: the customer's own subscription's settlement (null until settled); another's is a 404. */
export async function customerSettlement(db: Db, subscriptionId: number, userId: number): Promise<SettlementView | null> {
  requireOwner(await subscriptionFor(db, subscriptionId), userId);
  const row = await settlementOf(db, subscriptionId);
  return row ? storedView(db, row) : null;
}

/**
 * POST /admin/subscriptions/{id}/settlement: settles once. The first call writes the settlement (a
 * `quoted_total` that no longer matches the rule is a 409: staff confirm what they previewed) and,
 * in the same transaction, the card charge for the rest; a later call (a retry, the other replica,
 * 다시 시도 after a decline) finishes the stored settlement, never a new one: the same charge id while
 * it is in flight, a new attempt id after a known decline, the same refund key.
 */
export async function confirmSettlement(
  ctx: PaymentContext, actor: StaffActor, subscriptionId: number, entry: SettlementEntry & { quoted_total?: number; acknowledgement_override?: string },
): Promise<SettlementView> {
  const now = ctx.clock.now();
  const step = await inTransaction(ctx.db, async (tx) => {
    const found = await subscriptionFor(tx, subscriptionId, true);
    if (!found) throw notFound('구독을 찾을 수 없습니다.');
    let row = await settlementOf(tx, subscriptionId);
    if (!row) {
      const c = await compute(tx, found, entry, now);
      // The customer has SETTLEMENT_ACK_WAIT_HOURS to acknowledge the return record; before that, staff settle only with a reason.
      if (c.acknowledgement.state === 'WAITING' && !entry.acknowledgement_override) {
        const until = new Date(c.acknowledgement.wait_until!);
        const reason = `고객이 반납 기록을 아직 확인하지 않았습니다. ${dotDate(koreaDate(until))} ${koreaTime(until)}까지(기록 후 ${SETTLEMENT_ACK_WAIT_HOURS}시간) 기다리거나, 확인 없이 정산하는 사유를 남겨주세요.`;
        throw conflict(reason, { acknowledgement_override: [reason] });
      }
      if (entry.quoted_total !== undefined && entry.quoted_total !== c.result.total) {
        throw conflict(`정산 금액이 미리보기(${won(entry.quoted_total)})와 다릅니다. 다시 미리보기 후 확정해주세요.`);
      }
      [row] = await tx.insert(subscriptionSettlements).values({
        subscriptionId, userId: found.sub.userId, damages: entry.damages, fuelShortfallPercent: c.fuel.percent, deductible: c.deductible, mileage: c.mileage,
        overagePaid: c.overagePaid, ...pickRow(c.result), depositPaymentId: c.result.to_refund > 0 ? c.first.paymentId : null, settledByUserId: actor.userId, settledBy: actor.name.slice(0, 200),
      }).returning();
      await recordAudit(tx, actor, { action: 'settle', entity: 'subscription', entityId: subscriptionId, before: null, after: { ...pick(c.result), damages: entry.damages, fuel_shortfall_percent: c.fuel.percent, fuel: c.fuel.arithmetic, deductible: c.deductible, mileage: c.mileage,
          acknowledgement: { ...c.acknowledgement, override: c.acknowledgement.state === 'WAITING' ? entry.acknowledgement_override : null } } });
      if (c.result.to_charge === 0 && c.result.to_refund === 0) await finishSettlement(tx, subscriptionId, now);
    }
    const company = statementCompany(found);
    if (company && row.status !== 'DONE') {
      // On 후불 no card is charged or refunded: the rest and the deposit back go to the company's next statement, once (their keys), with the settlement.
      const serviceDate = koreaDate(now);
      await billToCompanyStatement(tx, { subscriptionId, companyId: company, sourceKey: `sub:${subscriptionId}:settle`, kind: 'SETTLEMENT', label: `구독 #${subscriptionId} 반납 정산`, amount: row.toCharge, serviceDate });
      await billToCompanyStatement(tx, {
        subscriptionId, companyId: company, sourceKey: `sub:${subscriptionId}:settle:refund`, kind: 'SETTLEMENT_REFUND',
        label: prepaymentRefundOf(row.lines) > 0 ? `구독 #${subscriptionId} 반납 정산 보증금·미사용 선납금 반환` : `구독 #${subscriptionId} 반납 정산 보증금 반환`, amount: -row.toRefund, serviceDate,
      });
      await finishSettlement(tx, subscriptionId, now);
      return { row: await settlementOf(tx, subscriptionId) };
    }
    if (row.status === 'DONE' || row.toCharge === 0) return { row };
    const attempts = await attemptsOf(tx, 'subscription', subscriptionId, 'SUBSCRIPTION_SETTLEMENT');
    if (attempts.some((a) => paidAmount(a) > 0 || a.status === 'CANCELLED')) return { row };
    const pending = attempts.find((a) => a.status === 'PENDING');
    if (pending) return { row, charge: pending.id };
    const attempt = attempts.length + 1;
    const id = paymentIds.retry(paymentIds.subscriptionSettlement(subscriptionId), attempt);
    // 다시 시도 after a declined card: a new attempt, audited as a retry.
    if (attempt > 1) await recordAudit(tx, actor, { action: 'retry', entity: 'subscription', entityId: subscriptionId, before: null, after: { settlement_payment: id, amount: row.toCharge } });
    const recorded = await recordCharge(tx, ctx.payments.name, {
      // A company card's charge is the ordering admin's to see (the company pays, not the driver).
      id, userId: found.orderedBy ?? found.sub.userId, purpose: 'SUBSCRIPTION_SETTLEMENT', refType: 'subscription', refId: subscriptionId, attempt,
      orderName: `LUXE 구독 #${subscriptionId} 반납 정산`, amount: row.toCharge, billingKey: found.sub.billingKey ?? found.requestKey,
    }, now);
    return { row, charge: id, recorded };
  });
  if (step.charge) declinedOrFine(await executeCharge(ctx, step.charge, step.recorded));
  const row = await settlementOf(ctx.db, subscriptionId);
  if (row.status !== 'DONE' && row.toRefund > 0 && row.depositPaymentId) {
    // One partial refund of the first payment for the rest of the deposit and the unused 선납금, under one key.
    const reason = prepaymentRefundOf(row.lines) > 0 ? '반납 정산 보증금·미사용 선납금 환불' : '반납 정산 보증금 환불';
    const refund = await refundPayment(ctx, { paymentId: row.depositPaymentId, amount: row.toRefund, reason, actor: `staff:${actor.name}`, key: depositRefundKey(subscriptionId) });
    if (refund?.status === 'SUCCEEDED') await inTransaction(ctx.db, (tx) => finishSettlement(tx, subscriptionId, ctx.clock.now()));
  }
  return storedView(ctx.db, await settlementOf(ctx.db, subscriptionId));
}

const pickRow = (r: SettlementResult) => ({ lines: r.lines, total: r.total, deposit: r.deposit, fromDeposit: r.from_deposit, toCharge: r.to_charge, toRefund: r.to_refund, summary: r.summary });

/** Marks the settlement done (once) and tells the customer the lines and the arithmetic. */
async function finishSettlement(tx: Db, subscriptionId: number, now: Date): Promise<void> {
  const [row] = await tx
    .update(subscriptionSettlements)
    .set({ status: 'DONE', completedAt: now })
    .where(and(eq(subscriptionSettlements.subscriptionId, subscriptionId), eq(subscriptionSettlements.status, 'PENDING')))
    .returning();
  if (!row) return;
  await emit(tx, `subscription.settlement:${subscriptionId}`, {
    type: 'subscription.settled', userId: row.userId, subscriptionId,
    lines: row.lines.map((l) => ({ label: l.label, amount: l.amount, detail: l.detail })),
    total: row.total, deposit: row.deposit, fromDeposit: row.fromDeposit, toCharge: row.toCharge, toRefund: row.toRefund, summary: row.summary,
  }, now);
}

/** The settlement's card charge: paid finishes the settlement (and sends its message); declined, the usual message. */
export const settlementOutcome: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    await finishSettlement(tx, payment.refId, ctx.clock.now());
  },
  async failed(tx, payment, ctx) {
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};
