import { and, eq, ne } from 'drizzle-orm';
import { needsApproval, type CompanyRole } from '../../domain/company';
import { won } from '../../domain/money';
import { tripCardKey } from '../billing/butler-billing';
import type { PaidOrder } from '../billing/order-charges';
import { requireRole, type CompanyRow } from '../companies/companies';
import type { Db } from '../db/client';
import { butlerRequests } from '../db/schema';
import { forbidden, notFound, unprocessable } from '../errors';

/**
 * Changing a trip booked for a company (issue 52; docs/decisions/business-accounts.md "Changing a
 * company trip"): who may (the booker their own trip, the company's admin any of its trips), and
 * where the difference goes: nothing moves for a trip still waiting for approval (nothing was
 * charged) or billed to the monthly invoice (the statement reads the trip's price), the company's
 * current card otherwise. A booker's change that raises the price above the approval threshold is
 * the admin's to make, as a booking above it is the admin's to approve.
 */

type TripRow = typeof butlerRequests.$inferSelect;

export interface CompanyEditor {
  company: CompanyRow;
  role: CompanyRole;
}

/** A live trip of the company (locked when asked); another company's, a cancelled or an unknown id is 404. */
export async function companyTripRow(db: Db, companyId: number, id: number, { lock = false } = {}): Promise<TripRow> {
  const q = db.select().from(butlerRequests).where(and(eq(butlerRequests.id, id), eq(butlerRequests.companyId, companyId), ne(butlerRequests.status, 'CANCELLED')));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('요청을 찾을 수 없습니다.');
  return row;
}

/** The editor's live membership (a former member or a stranger: 404); a booker changes only the trips they booked. */
export async function companyEditor(db: Db, row: TripRow, userId: number): Promise<CompanyEditor> {
  const m = await requireRole(db, row.companyId!, userId, 'book');
  if (m.role !== 'ADMIN' && row.userId !== userId) throw forbidden('다른 사람이 한 회사 예약은 회사 관리자만 수정할 수 있습니다.');
  return m;
}

/**
 * Where an edit's difference is settled: null when no money moves (waiting, or on the invoice), or
 * the order on the company's card. A booker's rise above the threshold is refused (403) first.
 */
export async function companyEditPayer(db: Db, editor: CompanyEditor, row: TripRow, newPrice: number): Promise<PaidOrder | null> {
  const waiting = row.approvalStatus === 'WAITING';
  if (!waiting && newPrice > row.finalPrice && needsApproval(editor.role, editor.company.approvalThreshold, newPrice)) {
    throw forbidden(`변경 후 금액 ${won(newPrice)}이 회사의 승인 기준 금액 ${won(editor.company.approvalThreshold ?? 0)}을 넘습니다. 회사 관리자에게 변경을 요청해주세요.`);
  }
  if (waiting || row.invoiceBilled) return null;
  const card = await tripCardKey(db, row);
  if (!card) throw unprocessable('회사 결제 카드가 등록되지 않아 금액을 바꿀 수 없습니다. 회사 관리자에게 카드 등록을 요청해주세요.', { company: ['회사 결제 카드가 없습니다.'] });
  return { kind: 'BUTLER', id: row.id, userId: row.userId, billingKey: card };
}
