import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { COMPANY_INVITE_TTL_DAYS, lastAdminProblem, type CompanyInviteInfoAnswer, type CompanyInviteView, type CompanyMemberView, type CompanyRole, type MembershipView } from '../../domain/company';
import { normalizePhone } from '../../domain/accounts';
import type { CompanyInviteInput } from '../../domain/schemas/company';
import { customerActor, recordAudit } from '../audit/audit';
import { sha256 } from '../auth/tokens';
import { inTransaction, type Db } from '../db/client';
import { companies, companyInvites, companyMembers, users } from '../db/schema';
import { conflict, forbidden, notFound, unprocessable } from '../errors';
import { emit } from '../notifications/events';
import { companyView, memberOf, requireRole } from './companies';

/**
 * Who belongs to a company: invites (email or 알림톡, single use, only the code's hash kept, bound
 * to the address it went to), accepting one, roles, removal. The company keeps one admin at least;
 * membership changes lock the company row, so two admins demoting each other cannot leave none.
 */

const DAY_MS = 86_400_000;

const inviteView = (row: typeof companyInvites.$inferSelect): CompanyInviteView => ({
  id: row.id, role: row.role, channel: row.channel, address: row.address, expires_at: row.expiresAt.toISOString(), used_at: row.usedAt?.toISOString() ?? null,
});

/** GET /companies/{id}/members (ADMIN): live members and the invites not used yet and not expired. */
export async function listMembers(db: Db, companyId: number, userId: number, now: Date): Promise<{ members: CompanyMemberView[]; invites: CompanyInviteView[] }> {
  await requireRole(db, companyId, userId, 'manage');
  const rows = await db
    .select({ m: companyMembers, name: users.name, email: users.email, username: users.username })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(companyMembers.companyId, companyId), isNull(companyMembers.removedAt)))
    .orderBy(asc(companyMembers.createdAt), asc(companyMembers.userId));
  const invites = await db
    .select()
    .from(companyInvites)
    .where(and(eq(companyInvites.companyId, companyId), isNull(companyInvites.usedAt), gt(companyInvites.expiresAt, now)))
    .orderBy(asc(companyInvites.id));
  return {
    members: rows.map((r) => ({ user_id: r.m.userId, name: r.name ?? r.username, email: r.email, role: r.m.role, joined_at: r.m.createdAt.toISOString() })),
    invites: invites.map(inviteView),
  };
}

/**
 * POST /companies/{id}/invites (ADMIN): a code valid COMPANY_INVITE_TTL_DAYS, sent as a link to
 * /my/company/join by 알림톡 or email. A new invite to the same address voids the earlier ones.
 */
export async function inviteMember(db: Db, companyId: number, userId: number, input: CompanyInviteInput, now: Date): Promise<CompanyInviteView> {
  const actor = await customerActor(db, userId);
  return inTransaction(db, async (tx) => {
    await requireRole(tx, companyId, userId, 'manage', { lock: true });
    const address = input.channel === 'email' ? input.email : input.phone;
    const code = randomBytes(32).toString('base64url');
    await tx
      .update(companyInvites)
      .set({ expiresAt: now })
      .where(and(eq(companyInvites.companyId, companyId), eq(companyInvites.address, address), isNull(companyInvites.usedAt), gt(companyInvites.expiresAt, now)));
    const [row] = await tx
      .insert(companyInvites)
      .values({ companyId, role: input.role, channel: input.channel, address, codeHash: sha256(code), expiresAt: new Date(now.getTime() + COMPANY_INVITE_TTL_DAYS * DAY_MS), createdByUserId: userId, createdAt: now })
      .returning();
    await emit(tx, `company.invited:${row.id}`, { type: 'company.invited', inviteId: row.id, code }, now);
    const view = inviteView(row);
    await recordAudit(tx, actor, { action: 'invite', entity: 'company', entityId: companyId, before: null, after: view });
    return view;
  });
}

/** DELETE /companies/{id}/invites/{inviteId} (ADMIN): the link stops working. */
export async function revokeInvite(db: Db, companyId: number, userId: number, inviteId: number, now: Date): Promise<void> {
  await inTransaction(db, async (tx) => {
    await requireRole(tx, companyId, userId, 'manage', { lock: true });
    const [row] = await tx.update(companyInvites).set({ expiresAt: now }).where(and(eq(companyInvites.id, inviteId), eq(companyInvites.companyId, companyId), isNull(companyInvites.usedAt))).returning();
    if (!row) throw notFound('초대를 찾을 수 없습니다.');
  });
}

async function liveInvite(db: Db, code: string, now: Date, lock = false) {
  const q = db.select({ invite: companyInvites, company: companies }).from(companyInvites).innerJoin(companies, eq(companies.id, companyInvites.companyId)).where(eq(companyInvites.codeHash, sha256(code)));
  const [row] = lock ? await q.for('update', { of: companyInvites }) : await q;
  if (!row || row.company.closedAt) throw notFound('초대 링크가 올바르지 않습니다. 회사 관리자에게 새 초대를 요청해주세요.');
  if (row.invite.usedAt) throw conflict('이미 사용된 초대 링크입니다.');
  if (row.invite.expiresAt <= now) throw conflict('초대 링크가 만료되었습니다. 회사 관리자에게 새 초대를 요청해주세요.');
  return row;
}

/** GET /companies/invites/{code}: the company and the role, before the invitee accepts. */
export async function companyInviteInfo(db: Db, code: string, now: Date): Promise<CompanyInviteInfoAnswer> {
  const { invite, company } = await liveInvite(db, code, now);
  return { company_name: company.name, role: invite.role, channel: invite.channel, expires_at: invite.expiresAt.toISOString() };
}

/**
 * POST /companies/invites/accept: the signed-in user joins with the invite's role, once. The
 * account's email or mobile must be the address the invite went to (a forwarded link does not let
 * someone else in). A removed member invited again comes back with the new role.
 */
export async function acceptInvite(db: Db, userId: number, code: string, now: Date): Promise<MembershipView> {
  const actor = await customerActor(db, userId);
  return inTransaction(db, async (tx) => {
    const { invite, company } = await liveInvite(tx, code, now, true);
    const [user] = await tx.select({ email: users.email, mobile: users.mobile }).from(users).where(eq(users.id, userId));
    const matches = invite.channel === 'email' ? user?.email?.toLowerCase() === invite.address : normalizePhone(user?.mobile ?? '') === invite.address;
    if (!matches) throw forbidden(invite.channel === 'email' ? '초대받은 이메일과 로그인한 계정의 이메일이 다릅니다. 초대받은 계정으로 로그인해주세요.' : '초대받은 휴대폰 번호와 로그인한 계정의 번호가 다릅니다. 초대받은 계정으로 로그인해주세요.');
    const [current] = await tx.select().from(companyMembers).where(and(eq(companyMembers.companyId, company.id), eq(companyMembers.userId, userId)));
    if (current && !current.removedAt) throw conflict('이미 이 회사의 구성원입니다.');
    await tx.update(companyInvites).set({ usedAt: now, userId }).where(eq(companyInvites.id, invite.id));
    await tx
      .insert(companyMembers)
      .values({ companyId: company.id, userId, role: invite.role, createdAt: now })
      .onConflictDoUpdate({ target: [companyMembers.companyId, companyMembers.userId], set: { role: invite.role, removedAt: null, createdAt: now } });
    await recordAudit(tx, actor, { action: 'accept', entity: 'company', entityId: company.id, before: null, after: { invite_id: invite.id, user_id: userId, role: invite.role } });
    return { company: companyView(company), role: invite.role };
  });
}

/** The live members' roles of a company (inside the caller's transaction, the company row locked). */
async function liveRoles(tx: Db, companyId: number) {
  return tx.select({ userId: companyMembers.userId, role: companyMembers.role }).from(companyMembers).where(and(eq(companyMembers.companyId, companyId), isNull(companyMembers.removedAt)));
}

/** PUT /companies/{id}/members/{userId} (ADMIN): a new role; the last admin keeps theirs (422). */
export async function changeRole(db: Db, companyId: number, actorId: number, memberId: number, role: CompanyRole, now: Date): Promise<CompanyMemberView[]> {
  const actor = await customerActor(db, actorId);
  await inTransaction(db, async (tx) => {
    await requireRole(tx, companyId, actorId, 'manage', { lock: true });
    const members = await liveRoles(tx, companyId);
    const member = members.find((m) => m.userId === memberId);
    if (!member) throw notFound('구성원을 찾을 수 없습니다.');
    const problem = lastAdminProblem(members, memberId, role);
    if (problem) throw unprocessable(problem, { role: [problem] });
    await tx.update(companyMembers).set({ role }).where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, memberId)));
    await recordAudit(tx, actor, { action: 'update', entity: 'company_member', entityId: `${companyId}:${memberId}`, before: { role: member.role }, after: { role } });
  });
  return (await listMembers(db, companyId, actorId, now)).members;
}

/**
 * DELETE /companies/{id}/members/{userId} (ADMIN, or a member leaving): the member loses access at
 * once (the row keeps removed_at for the audit); the last admin cannot be removed (422).
 */
export async function removeMember(db: Db, companyId: number, actorId: number, memberId: number, now: Date): Promise<void> {
  const actor = await customerActor(db, actorId);
  await inTransaction(db, async (tx) => {
    // Any live member may leave; removing someone else is the admin's.
    if (actorId === memberId) await memberOf(tx, companyId, actorId, { lock: true });
    else await requireRole(tx, companyId, actorId, 'manage', { lock: true });
    const members = await liveRoles(tx, companyId);
    const member = members.find((m) => m.userId === memberId);
    if (!member) throw notFound('구성원을 찾을 수 없습니다.');
    const problem = lastAdminProblem(members, memberId, null);
    if (problem) throw unprocessable(problem, { user_id: [problem] });
    await tx.update(companyMembers).set({ removedAt: now }).where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, memberId)));
    await recordAudit(tx, actor, { action: 'remove', entity: 'company_member', entityId: `${companyId}:${memberId}`, before: { role: member.role }, after: { removed_at: now.toISOString() } });
  });
}
