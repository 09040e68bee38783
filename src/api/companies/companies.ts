import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { formatBusinessNumber } from '../../domain/business';
import { businessStatusRefusal, booksForCompany, companyAuthorityRefusal, managesCompany, samePersonName, type CompanyAuthority, type CompanyRole, type CompanyView, type MembershipView } from '../../domain/company';
import type { CompanyCreateInput } from '../../domain/schemas/company';
import { cardViewOf } from '../../domain/card-label';
import { customerActor, recordAudit } from '../audit/audit';
import { inTransaction, type Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { billingKeyUses, companies, companyMembers, identityVerifications, subscriptions, users } from '../db/schema';
import { conflict, forbidden, notFound, unprocessable } from '../errors';
import type { Deps } from '../http';
import { rowTime } from '../jobs/clock';
import { maskBillingKey } from '../billing/ledger';

/**
 * Company accounts (법인): creating one (checksum and the 사업자 상태 through the adapter), reading
 * it, its settings and its card. Every read and write goes through memberOf/requireRole: a user
 * who is not a live member of the company gets the same 404 as for a company that does not exist.
 */

export type CompanyRow = typeof companies.$inferSelect;

const companyNotFound = () => notFound('회사를 찾을 수 없습니다.');

/** A company in API shape (the card as its label parts, never the key). */
export function companyView(row: CompanyRow): CompanyView {
  return {
    id: row.id, name: row.name, business_number: formatBusinessNumber(row.businessNumber), ceo: row.ceo, business_type: row.businessType, business_item: row.businessItem,
    address: row.address, invoice_email: row.invoiceEmail, business_status: row.businessStatus, status_checked_at: row.statusCheckedAt.toISOString(),
    opened_on: row.openedOn, authority: row.authority,
    billing: row.invoiceBilling ? 'INVOICE' : 'CARD', approval_threshold: row.approvalThreshold, card: row.billingKey ? cardViewOf(row) ?? { issuer: null, last4: null } : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The user's live membership of an open company (its row locked when asked), or the 404 a stranger gets. */
export async function memberOf(db: Db, companyId: number, userId: number, { lock = false } = {}): Promise<{ company: CompanyRow; role: CompanyRole }> {
  const q = db
    .select({ company: companies, role: companyMembers.role })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId), isNull(companyMembers.removedAt), isNull(companies.closedAt)));
  const [row] = lock ? await q.for('update', { of: companies }) : await q;
  if (!row) throw companyNotFound();
  return row;
}

/** memberOf, then 403 unless the role may do this: `manage` (ADMIN) or `book` (ADMIN, BOOKER). */
export async function requireRole(db: Db, companyId: number, userId: number, need: 'manage' | 'book', opts: { lock?: boolean } = {}) {
  const m = await memberOf(db, companyId, userId, opts);
  if (need === 'manage' && !managesCompany(m.role)) throw forbidden('회사 관리자만 할 수 있습니다.');
  if (need === 'book' && !booksForCompany(m.role)) throw forbidden('회사 관리자 또는 예약 담당자만 할 수 있습니다.');
  return m;
}

/** GET /companies: the companies the user belongs to, with their role. */
export async function myCompanies(db: Db, userId: number): Promise<MembershipView[]> {
  const rows = await db
    .select({ company: companies, role: companyMembers.role })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.userId, userId), isNull(companyMembers.removedAt), isNull(companies.closedAt)))
    .orderBy(asc(companies.id));
  return rows.map((r) => ({ company: companyView(r.company), role: r.role }));
}

const numberField = (message: string) => ({ business_number: [message] });

/**
 * POST /companies: the checksum held (the schema), then the 사업자 상태 through the adapter: a
 * 휴업자 or 폐업자 or an unknown number is the 422; an open company with the number is the 409
 * (a repeat by its own admin returns it). The company and its first admin commit together.
 */
export async function createCompany(deps: Pick<Deps, 'db' | 'clock' | 'businessStatus'>, userId: number, input: CompanyCreateInput): Promise<{ created: boolean; membership: MembershipView }> {
  const { db } = deps;
  const existing = await openCompanyWithNumber(db, input.business_number);
  if (existing) return repeatOrConflict(db, existing, userId);
  const answer = await deps.businessStatus.check({ businessNumber: input.business_number, openedOn: input.opened_on, ceo: input.ceo });
  if (!answer) throw unprocessable('국세청에 등록되지 않은 사업자등록번호입니다. 번호를 다시 확인해주세요.', numberField('등록되지 않은 사업자등록번호입니다.'));
  const refusal = businessStatusRefusal(answer.status);
  if (refusal) throw unprocessable(refusal, numberField(refusal));
  if (!answer.matches) {
    const mismatch = '사업자등록증의 대표자성명과 개업일자를 확인해주세요.';
    throw unprocessable('국세청에 등록된 대표자성명 또는 개업일자와 일치하지 않습니다. 사업자등록증에 적힌 그대로 입력해주세요.', { ceo: [mismatch], opened_on: [mismatch] });
  }
  // The 국세청 matched the 대표자 with the number; the creator is that 대표자 when 본인인증 gave their name.
  const verifiedName = await verifiedNameOf(db, userId);
  const authority: CompanyAuthority = verifiedName && samePersonName(verifiedName, input.ceo) ? 'CEO' : 'PENDING';
  const now = deps.clock.now();
  const actor = await customerActor(db, userId);
  try {
    const row = await inTransaction(db, async (tx) => {
      const [made] = await tx
        .insert(companies)
        .values({
          name: input.name, businessNumber: input.business_number, ceo: input.ceo, businessType: input.business_type, businessItem: input.business_item,
          address: input.address, invoiceEmail: input.invoice_email, businessStatus: answer.status, statusCheckedAt: now, createdByUserId: userId,
          openedOn: input.opened_on, authority,
        })
        .returning();
      await tx.insert(companyMembers).values({ companyId: made.id, userId, role: 'ADMIN' });
      await recordAudit(tx, actor, { action: 'create', entity: 'company', entityId: made.id, before: null, after: { ...companyView(made), status_since: answer.since } });
      return made;
    });
    return { created: true, membership: { company: companyView(row), role: 'ADMIN' } };
  } catch (err) {
    if (!isUniqueViolation(err, 'companies_business_number_uq')) throw err;
    // A twin request (or another customer) got the number first.
    const winner = await openCompanyWithNumber(db, input.business_number);
    if (!winner) throw err;
    return repeatOrConflict(db, winner, userId);
  }
}

/** The customer's name as 본인인증 gave it (the verification behind their CI), or null when they have not verified. */
async function verifiedNameOf(db: Db, userId: number): Promise<string | null> {
  const [user] = await db.select({ name: users.name, ci: users.ci, verified: users.ciVerified }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user?.verified) return null;
  const [identity] = user.ci
    ? await db.select({ name: identityVerifications.name }).from(identityVerifications).where(and(eq(identityVerifications.ci, user.ci), eq(identityVerifications.status, 'VERIFIED'))).orderBy(desc(identityVerifications.createdAt)).limit(1)
    : [];
  return identity?.name ?? user.name;
}

/** 403 unless the company may book and be billed: its creator is the 대표자, or staff confirmed their 재직/위임 proof. */
function requireAuthority(company: CompanyRow): void {
  const refusal = companyAuthorityRefusal(company.authority);
  if (refusal) throw forbidden(refusal);
}

/**
 * How the company pays for a new trip or subscription (`use`: 예약, 구독), or the refusal before
 * anything is ordered: a creator who is not the 대표자 orders nothing until staff confirmed their
 * 재직/위임 proof (403); a 휴업 or 폐업 company, or no card off 후불 (422; `cardMissing` tells the
 * orderer what to do).
 */
export function companyPayer(company: CompanyRow, use: '예약' | '구독', cardMissing: string): { invoice: boolean; cardKey: string | null } {
  requireAuthority(company);
  if (company.businessStatus !== 'ACTIVE') throw unprocessable(`휴업 또는 폐업 상태의 사업자는 회사 이름으로 ${use}할 수 없습니다. 고객센터로 문의해주세요.`, { company: ['계속사업자가 아닙니다.'] });
  if (company.invoiceBilling) return { invoice: true, cardKey: null };
  if (!company.billingKey) throw unprocessable(`회사 결제 카드가 등록되지 않았습니다. ${cardMissing}`, { company: ['회사 결제 카드가 없습니다.'] });
  return { invoice: false, cardKey: company.billingKey };
}

async function openCompanyWithNumber(db: Db, businessNumber: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(and(eq(companies.businessNumber, businessNumber), isNull(companies.closedAt)));
  return row;
}

async function repeatOrConflict(db: Db, row: CompanyRow, userId: number) {
  const [own] = await db.select().from(companyMembers).where(and(eq(companyMembers.companyId, row.id), eq(companyMembers.userId, userId), isNull(companyMembers.removedAt)));
  if (own?.role === 'ADMIN') return { created: false, membership: { company: companyView(row), role: own.role } };
  throw conflict('이미 등록된 사업자등록번호입니다. 회사 관리자에게 초대를 요청해주세요.', numberField('이미 등록된 사업자등록번호입니다.'));
}

/** PUT /companies/{id}/settings (ADMIN): the approval threshold (won; null: no trip waits). */
export async function updateCompanySettings(db: Db, companyId: number, userId: number, approvalThreshold: number | null): Promise<CompanyView> {
  const actor = await customerActor(db, userId);
  return inTransaction(db, async (tx) => {
    const { company } = await requireRole(tx, companyId, userId, 'manage', { lock: true });
    const [after] = await tx.update(companies).set({ approvalThreshold, updatedAt: rowTime() }).where(eq(companies.id, companyId)).returning();
    await recordAudit(tx, actor, { action: 'update', entity: 'company', entityId: companyId, before: { approval_threshold: company.approvalThreshold }, after: { approval_threshold: after.approvalThreshold } });
    return companyView(after);
  });
}

/**
 * PUT /companies/{id}/card (ADMIN): the 법인카드, registered through the same billing-key flow as
 * an order's card. The key is verified with the provider and claimed for the company (a key backs
 * one thing); the company's former key is then deleted at the provider. A repeat of the same key is
 * the company as it is.
 */
export async function registerCompanyCard(deps: Pick<Deps, 'db' | 'payments' | 'log'>, companyId: number, userId: number, billingKey: string): Promise<CompanyView> {
  const { db } = deps;
  const { company } = await requireRole(db, companyId, userId, 'manage');
  if (company.billingKey === billingKey) return companyView(company);
  const card = await deps.payments.verifyBillingKey(billingKey);
  const actor = await customerActor(db, userId);
  const { after, previous } = await inTransaction(db, async (tx) => {
    const { company: locked } = await requireRole(tx, companyId, userId, 'manage', { lock: true });
    const claimed = await tx.insert(billingKeyUses).values({ billingKey, service: 'COMPANY', userId, orderId: companyId }).onConflictDoNothing().returning();
    if (!claimed.length) throw conflict('이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.', { billing_key: ['이미 사용된 빌링키입니다.'] });
    const [row] = await tx
      .update(companies)
      .set({ billingKey, billingProvider: deps.payments.name, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, updatedAt: rowTime() })
      .where(eq(companies.id, companyId))
      .returning();
    // The company's subscriptions (법인 장기 구독) are charged on its card: they move to the new one with it.
    if (locked.billingKey) {
      await tx.update(subscriptions).set({ billingKey, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, updatedAt: rowTime() }).where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.billingKey, locked.billingKey)));
    }
    await recordAudit(tx, actor, { action: 'update', entity: 'company_card', entityId: companyId, before: { billing_key: locked.billingKey ? maskBillingKey(locked.billingKey) : null }, after: { billing_key: maskBillingKey(billingKey), card: cardViewOf(row) } });
    return { after: row, previous: locked.billingKey };
  });
  if (previous) {
    const deleted = await deps.payments.deleteBillingKey(previous, `LUXE 법인 #${companyId} 결제 카드 변경`);
    if (deleted.status === 'FAILED') deps.log('error', `[companies] company ${companyId}: the old billing key was not deleted at the provider: ${deleted.reason}`);
  }
  return companyView(after);
}
