import { and, asc, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import type { CompanyView } from '../../domain/company';
import type { PaginationInfo } from '../../domain/schemas/common';
import { recordAudit } from '../audit/audit';
import type { StaffActor } from '../auth/guards';
import { inTransaction, type Db } from '../db/client';
import { companies, companyMembers, users } from '../db/schema';
import { notFound } from '../errors';
import { rowTime } from '../jobs/clock';
import { ADMIN_PAGE_SIZE, onPage, paginationInfo, totalRows } from '../pagination';
import { companyView } from './companies';

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
export type AdminCompanyAnswer = { company: CompanyView & { closed_at: string | null }; members: AdminCompanyMember[] };

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
  await recordAudit(db, actor, { action: 'read', entity: 'company', entityId: id, before: null, after: { members: rows.length } });
  return {
    company: { ...companyView(row), closed_at: row.closedAt?.toISOString() ?? null },
    members: rows.map((r) => ({ user_id: r.m.userId, name: r.name ?? r.username, email: r.email, mobile: r.mobile, role: r.m.role, removed_at: r.m.removedAt?.toISOString() ?? null })),
  };
}

/** PUT /admin/companies/{id}/billing: 후불 (one monthly invoice) on or off, audited; trips booked from then on follow it. */
export async function setInvoiceBilling(db: Db, actor: StaffActor, id: number, on: boolean): Promise<CompanyView> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
    if (!row) throw notFound('회사를 찾을 수 없습니다.');
    const [after] = await tx.update(companies).set({ invoiceBilling: on, updatedAt: rowTime() }).where(eq(companies.id, id)).returning();
    await recordAudit(tx, actor, { action: 'update', entity: 'company', entityId: id, before: { invoice_billing: row.invoiceBilling }, after: { invoice_billing: after.invoiceBilling } });
    return companyView(after);
  });
}
