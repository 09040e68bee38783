import { and, asc, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import { companyAuthorityRefusal, type CompanyView } from '../../domain/company';
import type { CompanyAuthorityInput } from '../../domain/schemas/company';
import type { PaginationInfo } from '../../domain/schemas/common';
import { recordAudit } from '../audit/audit';
import type { StaffActor } from '../auth/guards';
import { inTransaction, type Db } from '../db/client';
import { companies, companyMembers, users } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { rowTime } from '../jobs/clock';
import { ADMIN_PAGE_SIZE, onPage, paginationInfo, totalRows } from '../pagination';
import { companyView } from './companies';
import { emit } from '../notifications/events';
import type { ProofDocumentView, ProofRefusalView } from '../../domain/company-proof';
import { proofDocumentList, proofRefusalOf } from './proof';

/**
 * The console's companies: a list and a detail for staff, each read recorded in the audit log (the
 * company's tax details and members are personal and business data), and the 후불 switch staff own.
 */

interface AdminCompanyMember {
  user_id: number;
  name: string;
  email: string | null;
  mobile: string | null;
  role: string;
  removed_at: string | null;
}
export type AdminCompanyListAnswer = { companies: (CompanyView & { members: number; closed_at: string | null })[]; pagination_info: PaginationInfo };
export type AdminCompanyAnswer = {
  company: CompanyView & { closed_at: string | null; authority_note: string | null; authority_decided_at: string | null; authority_refusal: ProofRefusalView | null };
  members: AdminCompanyMember[];
  /** 재직·위임 증빙 the company's admin uploaded (downloads: GET /admin/companies/{id}/authority-documents/{documentId}, audited). */
  authority_documents: ProofDocumentView[];
};

/** GET /admin/companies: newest first, searched by 상호 or 사업자등록번호 (`q`); the read is audited. */
export async function adminCompanyList(db: Db, actor: StaffActor, q: { page: number; q?: string }): Promise<AdminCompanyListAnswer> {
  const where: SQL[] = [];
  const term = q.q?.trim();
  if (term) where.push(or(ilike(companies.name, `%${term.replace(/[%_\\]/g, '\\$&')}%`), eq(companies.businessNumber, term.replace(/[\s-]/g, '')))!);
  const members = db.$with('members').as(db.select({ companyId: companyMembers.companyId, n: count().as('n') }).from(companyMembers).where(isNull(companyMembers.removedAt)).groupBy(companyMembers.companyId));
  const query = db
    .with(members)
    .select({ row: companies, n: members.n, total: totalRows() })
    .from(companies)
    .leftJoin(members, eq(members.companyId, companies.id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(companies.id));
  const rows = await onPage(query.$dynamic(), q.page, ADMIN_PAGE_SIZE);
  await recordAudit(db, actor, { action: 'read', entity: 'company', entityId: null, before: null, after: { page: q.page, q: term ?? null, ids: rows.map((r) => r.row.id) } });
  return {
    companies: rows.map((r) => ({ ...companyView(r.row), members: Number(r.n ?? 0), closed_at: r.row.closedAt?.toISOString() ?? null })),
    pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, ADMIN_PAGE_SIZE),
  };
}

/** GET /admin/companies/{id}: the company and every member (removed ones too); the read is audited. */
export async function adminCompany(db: Db, actor: StaffActor, id: number): Promise<AdminCompanyAnswer> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  if (!row) throw notFound('회사를 찾을 수 없습니다.');
  const rows = await db
    .select({ m: companyMembers, name: users.name, username: users.username, email: users.email, mobile: users.mobile })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(eq(companyMembers.companyId, id))
    .orderBy(asc(companyMembers.createdAt));
  const documents = await proofDocumentList(db, id);
  await recordAudit(db, actor, { action: 'read', entity: 'company', entityId: id, before: null, after: { members: rows.length, authority_documents: documents.map((d) => d.id) } });
  return {
    company: {
      ...companyView(row), closed_at: row.closedAt?.toISOString() ?? null, authority_note: row.authorityNote, authority_decided_at: row.authorityDecidedAt?.toISOString() ?? null,
      authority_refusal: proofRefusalOf(row),
    },
    authority_documents: documents,
    members: rows.map((r) => ({ user_id: r.m.userId, name: r.name ?? r.username, email: r.email, mobile: r.mobile, role: r.m.role, removed_at: r.m.removedAt?.toISOString() ?? null })),
  };
}

/** PUT /admin/companies/{id}/billing: 후불 (one monthly invoice) on or off, audited; trips booked from then on follow it. */
export async function setInvoiceBilling(db: Db, actor: StaffActor, id: number, on: boolean): Promise<CompanyView> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
    if (!row) throw notFound('회사를 찾을 수 없습니다.');
    // 후불 is credit: not before the creator is shown to act for the company.
    const refusal = on ? companyAuthorityRefusal(row.authority) : null;
    if (refusal) throw unprocessable('재직·위임 확인을 마친 회사만 후불로 바꿀 수 있습니다. 먼저 확인을 처리해주세요.', { invoice_billing: ['재직·위임 확인 대기 중입니다.'] });
    const [after] = await tx.update(companies).set({ invoiceBilling: on, updatedAt: rowTime() }).where(eq(companies.id, id)).returning();
    await recordAudit(tx, actor, { action: 'update', entity: 'company', entityId: id, before: { invoice_billing: row.invoiceBilling }, after: { invoice_billing: after.invoiceBilling } });
    return companyView(after);
  });
}

/**
 * PUT /admin/companies/{id}/authority: staff's decision on a company whose creator is not the
 * 대표자 (authority PENDING), after checking the 재직·위임 proof the admin uploaded (or sent).
 * confirm: the company may book and be billed (CONFIRMED). refuse: the proof does not do; the
 * company stays PENDING with the reason (the note), which its admin reads on /my/company and may
 * upload again. reject: the company is closed, so its number is free for the business's real
 * representative. Audited with the note (confirm `approve`, refuse `refuse`, reject
 * `decline`); a company not waiting is 409. On confirm and refuse each live admin is told once.
 */
export async function decideAuthority(db: Db, actor: StaffActor, id: number, input: CompanyAuthorityInput, now: Date): Promise<CompanyView & { closed_at: string | null }> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
    if (!row) throw notFound('회사를 찾을 수 없습니다.');
    if (row.authority !== 'PENDING' || row.closedAt) throw conflict('재직·위임 확인을 기다리는 회사가 아닙니다. 이미 처리되었거나 닫힌 회사입니다.');
    const changes = {
      confirm: { authority: 'CONFIRMED' as const, authorityNote: input.note, authorityDecidedAt: now },
      refuse: { authorityRefusal: input.note, authorityRefusedAt: now },
      reject: { authorityNote: input.note, authorityDecidedAt: now, closedAt: now },
    }[input.decision];
    const [after] = await tx.update(companies).set({ ...changes, updatedAt: rowTime() }).where(eq(companies.id, id)).returning();
    const action = ({ confirm: 'approve', refuse: 'refuse', reject: 'decline' } as const)[input.decision];
    await recordAudit(tx, actor, {
      action, entity: 'company_authority', entityId: id,
      before: { authority: row.authority, closed_at: null, refusal: row.authorityRefusal },
      after: { authority: after.authority, note: input.note, closed_at: after.closedAt?.toISOString() ?? null, documents: (await proofDocumentList(tx, id)).map((d) => ({ id: d.id, name: d.name, size: d.size })) },
    });
    if (input.decision !== 'reject') {
      const admins = await tx.select({ userId: companyMembers.userId }).from(companyMembers).where(and(eq(companyMembers.companyId, id), eq(companyMembers.role, 'ADMIN'), isNull(companyMembers.removedAt)));
      for (const a of admins) {
        if (input.decision === 'confirm') await emit(tx, `company.authority_confirmed:${id}:${a.userId}`, { type: 'company.authority_confirmed', userId: a.userId, companyId: id }, now);
        else await emit(tx, `company.authority_refused:${id}:${now.getTime()}:${a.userId}`, { type: 'company.authority_refused', userId: a.userId, companyId: id, reason: input.note }, now);
      }
    }
    return { ...companyView(after), closed_at: after.closedAt?.toISOString() ?? null };
  });
}
