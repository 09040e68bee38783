import { createHash } from 'node:crypto';
import { and, asc, desc, eq, lte } from 'drizzle-orm';
import type { StoredOrderOptions } from '../../domain/subscription-price';
import { optionLines } from '../../domain/subscription-lines';
import { CONTRACT_ARTICLES, CONTRACT_DEFAULTS, contractDocument, orderConsents, policyArticles, type ContractInput, type ContractSubscriber } from '../../domain/contract';
import { formatBusinessNumber } from '../../domain/business';
import { missingContractGlyphs } from '../../domain/contract-font';
import { koreaDate } from '../../domain/dates';
import { ORDER_KINDS, type FirstPaymentParts } from '../../domain/payments';
import { feeOfMonth } from '../../domain/extension';
import { termEnd } from '../../domain/subscriptions';
import type { Db } from '../db/client';
import { companies, coupons, policyDocuments, subscriptionContracts, subscriptionRequests, userCoupons, users } from '../db/schema';
import type { Config } from '../env';
import { notFound } from '../errors';
import { enqueue, type Job, type JobSpec } from '../jobs/queue';
import { attemptsOf } from '../billing/ledger';
import { carById } from '../catalogue/catalogue';
import { renderContractPdf } from './contract-pdf';

/**
 * The subscription contract (계약서): assembled from the order, issued once as a PDF with its
 * SHA-256, kept unchanged (docs/decisions/contract.md). Issued by a job the order's "received"
 * moment enqueues (the first charge paid, or nothing to pay): `scheduleContract`, the one hook
 * the order flow calls; a download before the job ran issues it then, from the same input.
 */

export const CONTRACT_JOB = 'subscription-contract';
const contractKey = (requestId: number) => `contract:subreq:${requestId}`;

export type ContractRow = typeof subscriptionContracts.$inferSelect;

/** What issuing needs: the database, the company (config) and a log. */
export interface ContractContext {
  db: Db;
  config: Pick<Config, 'company'>;
  log: (level: 'info' | 'error', message: string, extra?: unknown) => void;
}

/** The job that issues request `requestId`'s contract (its key makes it once per request). */
const contractJob = (requestId: number, now: Date): JobSpec => ({ kind: CONTRACT_JOB, key: contractKey(requestId), payload: { requestId }, runAt: now, maxAttempts: 8 });

/**
 * The hook of the order flow: call inside the transaction in which an order is received (its first
 * charge recorded as paid, or placed with nothing to pay). A retried order or a charge settled twice
 * meets the same job key: one contract.
 */
export async function scheduleContract(tx: Db, requestId: number, now: Date): Promise<void> {
  await enqueue(tx, contractJob(requestId, now));
}

/** The terms in force on the order's day (the newest effective by then; the oldest when none was yet). */
async function termsOn(db: Db, day: string) {
  const [inForce] = await db.select().from(policyDocuments).where(and(eq(policyDocuments.kind, 'terms'), lte(policyDocuments.effectiveDate, day))).orderBy(desc(policyDocuments.effectiveDate), desc(policyDocuments.id)).limit(1);
  if (inForce) return inForce;
  const [first] = await db.select().from(policyDocuments).where(eq(policyDocuments.kind, 'terms')).orderBy(asc(policyDocuments.effectiveDate), asc(policyDocuments.id)).limit(1);
  return first;
}

/**
 * What the order's options make of the contract: its option and price lines, the plan's km and
 * overage rate, the car's 자기부담금 and the handover. An order placed before options existed has
 * none: the FAQ's promises then (CONTRACT_DEFAULTS).
 */
function orderTerms(stored: StoredOrderOptions | null, month: number, start: string): Pick<ContractInput, 'options' | 'mileage' | 'insurance' | 'delivery'> {
  if (!stored) return { options: [], ...CONTRACT_DEFAULTS };
  const lines = optionLines(stored.options, stored.prices, { month, startDate: start });
  // The handover's own lines (인수 방법 탁송, 탁송 주소, …), each under its label.
  const handover = lines.filter((l) => l.label === '인수 방법' || l.label.startsWith('탁송'));
  return {
    // The options only: the amounts, with their one total, are section 5's (feeLines).
    options: lines,
    mileage: { monthlyKm: stored.options.mileage_km, overagePerKm: stored.prices.overage_per_km },
    insurance: { ...CONTRACT_DEFAULTS.insurance, deductible: stored.prices.deductible },
    delivery: handover,
  };
}

/**
 * The amounts as billing charges them: the first payment is the order's stored quote, which the
 * first charge took (quote.final) and /my/payments names by its parts; month k of the term is
 * feeOfMonth(k, request.fee, …), the one rule every monthly charge reads (no swap or extension yet
 * at the order: the request's fee, the 선납금 credit already off). An order before options has no
 * quote: its fee, coupon, points and what it paid.
 */
function contractAmounts(r: typeof subscriptionRequests.$inferSelect, couponName: string | null): ContractInput['amounts'] {
  const q = r.options?.quote;
  const first: FirstPaymentParts = q
    ? { monthly: q.monthly, coupon_discount: q.coupon_discount, points: q.points, delivery_fee: q.delivery_fee, deposit: q.deposit, prepayment: q.prepayment, paid_today: q.paid_today }
    : { monthly: r.fee, coupon_discount: r.couponDiscount, points: r.pointUsed, delivery_fee: 0, deposit: 0, prepayment: 0, paid_today: r.finalFee };
  const laterMonthFees = Array.from({ length: Math.max(0, r.month - 1) }, (_, i) => feeOfMonth(i + 2, r.fee, []));
  return { first, couponName, prepaymentCredit: q?.prepayment_credit ?? 0, laterMonthFees };
}

/**
 * The contract's input from the order, its car, its customer, the company and the terms in force
 * on the order's day.
 */
export async function contractInput(db: Db, company: Config['company'], requestId: number): Promise<ContractInput> {
  const [r] = await db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
  if (!r) throw notFound('구독 신청을 찾을 수 없습니다.');
  const car = await carById(db, r.carId);
  const [u] = await db.select({ name: users.name, mobile: users.mobile, email: users.email, username: users.username, ci: users.ci }).from(users).where(eq(users.id, r.userId));
  let couponName: string | null = null;
  if (r.userCouponId) {
    const [c] = await db.select({ name: coupons.name }).from(userCoupons).innerJoin(coupons, eq(coupons.id, userCoupons.couponId)).where(eq(userCoupons.id, r.userCouponId));
    couponName = c?.name ?? null;
  }
  const start = r.requestedStart ?? r.startDate ?? koreaDate(r.createdAt);
  const terms = await termsOn(db, koreaDate(r.createdAt));
  const subscriber = r.companyId ? await subscriberOf(db, r.companyId, r.orderedByUserId, r.invoiceBilled) : undefined;
  return {
    requestId: r.id,
    orderedAt: r.createdAt,
    company,
    customer: { name: u?.name?.trim() || u?.username || '고객', phone: u?.mobile ?? null, email: u?.email ?? null },
    ...(subscriber ? { subscriber } : {}),
    car: { brand: car.model.brand.name, model: car.model.name, subModel: car.sub_model, trim: car.trim, plate: car.license_plate, colour: car.color },
    term: r.month,
    startDate: start,
    endDate: termEnd(start, r.month),
    amounts: contractAmounts(r, couponName),
    ...orderTerms(r.options, r.month, start),
    rules: terms
      ? { source: `${terms.title} ${terms.version}`, articles: policyArticles(terms.content, (title) => CONTRACT_ARTICLES.test(title)) }
      : { source: '서비스 이용약관', articles: [] },
    consents: orderConsents(r.locationConsent),
    identityVerified: Boolean(u?.ci),
  };
}

/** A company order's party (법인 장기 구독): the company as it was when the contract was issued, and who ordered. */
async function subscriberOf(db: Db, companyId: number, orderedBy: number | null, invoice: boolean): Promise<ContractSubscriber> {
  const [c] = await db.select().from(companies).where(eq(companies.id, companyId));
  const [o] = orderedBy ? await db.select({ name: users.name, username: users.username }).from(users).where(eq(users.id, orderedBy)) : [];
  return { name: c.name, businessNumber: formatBusinessNumber(c.businessNumber), ceo: c.ceo, address: c.address, orderedBy: o?.name?.trim() || o?.username || '-', billing: invoice ? 'INVOICE' : 'CARD' };
}

/** The PDF of an input and its SHA-256 (hex): the same input gives the same bytes. */
export async function contractPdf(input: ContractInput): Promise<{ pdf: Uint8Array; sha256: string }> {
  const pdf = await renderContractPdf(contractDocument(input), { at: input.orderedAt, id: `subscription-request:${input.requestId}` });
  return { pdf, sha256: createHash('sha256').update(pdf).digest('hex') };
}

async function storedContract(db: Db, requestId: number): Promise<ContractRow | undefined> {
  const [row] = await db.select().from(subscriptionContracts).where(eq(subscriptionContracts.requestId, requestId));
  return row;
}

/** Whether the order was received: its first month paid (even if refunded since), or nothing was to pay. */
async function received(db: Db, r: typeof subscriptionRequests.$inferSelect): Promise<boolean> {
  const charges = await attemptsOf(db, ORDER_KINDS.SUBSCRIBE.refType, r.id, 'SUBSCRIPTION_FIRST');
  // A company order on 후불 charges nothing at order: it is received when placed (its months go on the statement).
  if (charges.length === 0) return r.finalFee === 0 || r.invoiceBilled;
  return charges.some((c) => c.paidAt !== null || c.status === 'PAID' || c.status === 'PARTIAL_CANCELLED' || c.status === 'CANCELLED');
}

/**
 * Issues request `requestId`'s contract once: nothing when it exists; otherwise the PDF is made and
 * inserted (a concurrent issue of the same request keeps the first row). Returns the stored row, or
 * null when the order was not received (a declined first charge: no contract).
 */
async function issueContract(ctx: ContractContext, requestId: number): Promise<ContractRow | null> {
  let userId = 0;
  let createdAt = new Date(0);
  return issueOnce(ctx, `[contract] request ${requestId}`, {
    stored: () => storedContract(ctx.db, requestId),
    input: async () => {
      const [r] = await ctx.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
      if (!r || !(await received(ctx.db, r))) return null;
      ({ userId, createdAt } = r);
      return contractInput(ctx.db, ctx.config.company, requestId);
    },
    render: async (input) => (await contractPdf(input)).pdf,
    insert: (file) => ctx.db.insert(subscriptionContracts).values({ requestId, userId, ...file, createdAt }).onConflictDoNothing({ target: subscriptionContracts.requestId }),
  });
}

/**
 * Issues a document once: the contract, an extension's or a swap's 부속 계약서. The stored row when
 * there is one; else its input (null: not to be issued), a log line for characters outside the
 * contract font, the PDF and its SHA-256 inserted so that a concurrent issue keeps the first row,
 * and the stored row. The row is never changed afterwards (a trigger refuses it).
 */
export async function issueOnce<Row, Input>(
  ctx: ContractContext,
  label: string,
  steps: {
    stored: () => Promise<Row | undefined>;
    input: () => Promise<Input | null>;
    render: (input: Input) => Promise<Uint8Array>;
    insert: (file: { pdf: Buffer; sha256: string; byteSize: number }) => Promise<unknown>;
  },
): Promise<Row | null> {
  const existing = await steps.stored();
  if (existing) return existing;
  const input = await steps.input();
  if (input === null) return null;
  const missing = missingContractGlyphs(JSON.stringify(input));
  if (missing.length) ctx.log('error', `${label}: characters outside the contract font print as boxes: ${missing.join('')}`);
  const pdf = await steps.render(input);
  await steps.insert({ pdf: Buffer.from(pdf), sha256: createHash('sha256').update(pdf).digest('hex'), byteSize: pdf.length });
  return (await steps.stored()) ?? null;
}

/** The contract job's handler. */
export async function contractJobHandler(ctx: ContractContext, job: Job): Promise<void> {
  await issueContract(ctx, Number(job.payload.requestId));
}

/**
 * A contract to download: the customer's own (another's or a missing request is 404), or any for
 * staff (`userId` null). Issued now when its job has not run yet; 404 when the order was not received.
 */
export async function contractForDownload(ctx: ContractContext, requestId: number, userId: number | null): Promise<ContractRow> {
  const [r] = await ctx.db.select({ userId: subscriptionRequests.userId }).from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
  if (!r || (userId !== null && r.userId !== userId)) throw notFound('구독 신청을 찾을 수 없습니다.');
  const row = await issueContract(ctx, requestId);
  if (!row) throw notFound('계약서가 없습니다. 첫 결제가 완료된 신청에만 계약서가 발행됩니다.');
  return row;
}

/** The HTTP answer of a contract: the PDF as an attachment, its hash in a header. */
export function contractResponse(row: Pick<ContractRow, 'pdf' | 'byteSize' | 'sha256'>, fileName: string): Response {
  return new Response(new Uint8Array(row.pdf), {
    status: 200,
    headers: {
      'content-type': 'application/pdf',
      'content-length': String(row.byteSize),
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
      'x-content-sha256': row.sha256,
      'x-content-type-options': 'nosniff',
    },
  });
}
