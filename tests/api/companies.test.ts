import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, billingKeyUses, companies } from '../../src/api/db/schema';
import { apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';
import { businessNumber, companyBody, inviteCodeSentTo as sentTo, join as joinCompany, newCompany as makeCompany } from './company-helpers';

const newCompany = (token: string) => makeCompany(ctx, token);
const inviteCodeSentTo = (to: string) => sentTo(ctx, to);
const join = (adminToken: string, companyId: number, member: Awaited<ReturnType<typeof customer>>, role: string) => joinCompany(ctx, adminToken, companyId, member, role);

/**
 * Company accounts (issue 52): a customer creates a company (checksum, then the 사업자 상태 through
 * the sandbox adapter: 폐업자 and 휴업자 refused) and becomes its admin; invites are single use,
 * bound to their address and expire; roles change and members leave, never the last admin; and a
 * member of one company never reads or changes another, a removed member loses access at once, a
 * booker cannot manage members. The 법인카드 is registered through the order's billing-key flow.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('creating a company', () => {
  it('makes the creator its admin, checks the status through the adapter and lists it as theirs', async () => {
    const admin = await customer(ctx);
    const number = businessNumber();
    const res = await ctx.call('POST', '/companies', { token: admin.token, json: companyBody({ business_number: `${number.slice(0, 3)}-${number.slice(3, 5)}-${number.slice(5)}` }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.role).toBe('ADMIN');
    expect(res.body.data.company).toMatchObject({ name: '주식회사 테스트', business_status: 'ACTIVE', billing: 'CARD', card: null, approval_threshold: null });
    expect(res.body.data.company.business_number).toBe(`${number.slice(0, 3)}-${number.slice(3, 5)}-${number.slice(5)}`);
    const [row] = await ctx.database.db.select().from(companies).where(eq(companies.id, res.body.data.company.id));
    expect(row.businessNumber).toBe(number);
    expect(row.statusCheckedAt).toBeInstanceOf(Date);

    const mine = await ctx.call('GET', '/companies', { token: admin.token });
    expect(mine.body.data.companies.map((m: { company: { id: number }; role: string }) => [m.company.id, m.role])).toEqual([[row.id, 'ADMIN']]);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company'), eq(auditLog.entityId, String(row.id))));
    expect(audit.map((a) => a.action)).toContain('create');

    // A retry by the same admin is the same company; another customer with the number is told to ask for an invite.
    const again = await ctx.call('POST', '/companies', { token: admin.token, json: companyBody({ business_number: number }) });
    expect(again.status).toBe(200);
    expect(again.body.data.company.id).toBe(row.id);
    const other = await customer(ctx);
    const taken = await ctx.call('POST', '/companies', { token: other.token, json: companyBody({ business_number: number }) });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('이미 등록된 사업자등록번호');
  });

  it('refuses a wrong check digit, a 폐업자, a 휴업자 and an unknown number in Korean, and answers 503 when the check is unreachable', async () => {
    const { token } = await customer(ctx);
    const good = businessNumber();
    const wrong = `${good.slice(0, 9)}${(Number(good[9]) + 1) % 10}`;
    const bad = await ctx.call('POST', '/companies', { token, json: companyBody({ business_number: wrong }) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.business_number[0]).toContain('올바른 사업자등록번호가 아닙니다');

    const closed = await ctx.call('POST', '/companies', { token, json: companyBody({ business_number: businessNumber('99') }) });
    expect(closed.status).toBe(422);
    expect(closed.body.message).toBe('폐업한 사업자입니다. 계속사업자만 법인 계정을 만들 수 있습니다.');
    const suspended = await ctx.call('POST', '/companies', { token, json: companyBody({ business_number: businessNumber('98') }) });
    expect(suspended.status).toBe(422);
    expect(suspended.body.message).toBe('휴업 중인 사업자입니다. 계속사업자만 법인 계정을 만들 수 있습니다.');
    const unknown = await ctx.call('POST', '/companies', { token, json: companyBody({ business_number: businessNumber('97') }) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toContain('등록되지 않은 사업자등록번호');
    const down = await ctx.call('POST', '/companies', { token, json: companyBody({ business_number: businessNumber('96') }) });
    expect(down.status).toBe(503);
    expect((await ctx.call('GET', '/companies', { token })).body.data.companies).toEqual([]);
  });

  it('validates every field and needs a login', async () => {
    const { token } = await customer(ctx);
    const res = await ctx.call('POST', '/companies', { token, json: { name: '', business_number: 'abc', invoice_email: 'nope' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['address', 'business_item', 'business_number', 'business_type', 'ceo', 'invoice_email', 'name', 'opened_on']);
    expect((await ctx.call('POST', '/companies', { json: companyBody() })).status).toBe(401);
    expect((await ctx.call('POST', '/companies', { token, json: ['x'] })).status).toBe(400);
  });
});

describe('members and invites', () => {
  it('an emailed invite is accepted once by the invited account, with its role', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    const booker = await customer(ctx);
    const code = await join(admin.token, company.id, booker, 'BOOKER');
    const mine = await ctx.call('GET', '/companies', { token: booker.token });
    expect(mine.body.data.companies).toEqual([expect.objectContaining({ role: 'BOOKER', company: expect.objectContaining({ id: company.id }) })]);
    // Single use: the same link again, by anyone, is refused.
    const again = await ctx.call('POST', '/companies/invites/accept', { token: booker.token, json: { code } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('이미 사용된 초대 링크입니다.');
    const members = await ctx.call('GET', `/companies/${company.id}/members`, { token: admin.token });
    expect(members.body.data.members.map((m: { user_id: number; role: string }) => [m.user_id, m.role])).toEqual([[admin.user.id, 'ADMIN'], [booker.user.id, 'BOOKER']]);
  });

  it('a forwarded link does not let another account in, an expired one is refused and a bad code is 404', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    const invited = await customer(ctx);
    await ctx.call('POST', `/companies/${company.id}/invites`, { token: admin.token, json: { channel: 'email', email: invited.user.email, role: 'DRIVER' } });
    const code = await inviteCodeSentTo(invited.user.email!);
    const info = await ctx.call('GET', `/companies/invites/${code}`);
    expect(info.body.data).toMatchObject({ company_name: '주식회사 테스트', role: 'DRIVER', channel: 'email' });
    const stranger = await customer(ctx);
    const forwarded = await ctx.call('POST', '/companies/invites/accept', { token: stranger.token, json: { code } });
    expect(forwarded.status).toBe(403);
    expect(forwarded.body.message).toContain('초대받은 이메일');
    expect((await ctx.call('GET', '/companies', { token: stranger.token })).body.data.companies).toEqual([]);

    ctx.clock.set(new Date(Date.now() + 8 * 86_400_000));
    try {
      const late = await ctx.call('POST', '/companies/invites/accept', { token: invited.token, json: { code } });
      expect(late.status).toBe(409);
      expect(late.body.message).toContain('만료');
    } finally {
      ctx.clock.reset();
    }
    expect((await ctx.call('POST', '/companies/invites/accept', { token: invited.token, json: { code: 'x'.repeat(43) } })).status).toBe(404);
  });

  it('a phone invite goes by 알림톡 and matches the account mobile', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    const member = await customer(ctx);
    const phone = member.user.mobile!;
    const res = await ctx.call('POST', `/companies/${company.id}/invites`, { token: admin.token, json: { channel: 'phone', phone: `${phone.slice(0, 3)}-${phone.slice(3, 7)}-${phone.slice(7)}`, role: 'BOOKER' } });
    expect(res.status).toBe(201);
    expect(res.body.data.invite.address).toBe(phone);
    const code = await inviteCodeSentTo(phone);
    expect((await ctx.call('POST', '/companies/invites/accept', { token: member.token, json: { code } })).status).toBe(200);
  });

  it('roles change, members are removed and lose access at once, and the last admin stays', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    const other = await customer(ctx);
    await join(admin.token, company.id, other, 'BOOKER');

    const lastAdmin = await ctx.call('PUT', `/companies/${company.id}/members/${admin.user.id}`, { token: admin.token, json: { role: 'BOOKER' } });
    expect(lastAdmin.status).toBe(422);
    expect(lastAdmin.body.message).toContain('마지막 관리자');
    const removeSelf = await ctx.call('DELETE', `/companies/${company.id}/members/${admin.user.id}`, { token: admin.token });
    expect(removeSelf.status).toBe(422);

    const promoted = await ctx.call('PUT', `/companies/${company.id}/members/${other.user.id}`, { token: admin.token, json: { role: 'ADMIN' } });
    expect(promoted.status).toBe(200);
    // With two admins one may step down.
    expect((await ctx.call('PUT', `/companies/${company.id}/members/${admin.user.id}`, { token: other.token, json: { role: 'BOOKER' } })).status).toBe(200);
    expect((await ctx.call('GET', `/companies/${company.id}/members`, { token: admin.token })).status).toBe(403);

    const removed = await ctx.call('DELETE', `/companies/${company.id}/members/${admin.user.id}`, { token: other.token });
    expect(removed.status).toBe(200);
    expect((await ctx.call('GET', `/companies/${company.id}`, { token: admin.token })).status).toBe(404);
    expect((await ctx.call('GET', '/companies', { token: admin.token })).body.data.companies).toEqual([]);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company_member'), eq(auditLog.entityId, `${company.id}:${admin.user.id}`)));
    expect(audit.map((a) => a.action).sort()).toEqual(['remove', 'update']);
  });

  it('a booker and a driver cannot manage members, invites, settings or the card', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    const booker = await customer(ctx);
    await join(admin.token, company.id, booker, 'BOOKER');
    const driver = await customer(ctx);
    await join(admin.token, company.id, driver, 'DRIVER');
    for (const who of [booker, driver]) {
      const t = who.token;
      expect((await ctx.call('GET', `/companies/${company.id}/members`, { token: t })).status).toBe(403);
      const inv = await ctx.call('POST', `/companies/${company.id}/invites`, { token: t, json: { channel: 'email', email: 'x@example.com', role: 'ADMIN' } });
      expect(inv.status).toBe(403);
      expect(inv.body.message).toBe('회사 관리자만 할 수 있습니다.');
      expect((await ctx.call('PUT', `/companies/${company.id}/members/${who.user.id}`, { token: t, json: { role: 'ADMIN' } })).status).toBe(403);
      expect((await ctx.call('DELETE', `/companies/${company.id}/members/${admin.user.id}`, { token: t })).status).toBe(403);
      expect((await ctx.call('PUT', `/companies/${company.id}/settings`, { token: t, json: { approval_threshold: 0 } })).status).toBe(403);
      expect((await ctx.call('PUT', `/companies/${company.id}/card`, { token: t, json: { billing_key: billingKey(ctx) } })).status).toBe(403);
      // They still read the company itself.
      expect((await ctx.call('GET', `/companies/${company.id}`, { token: t })).status).toBe(200);
    }
    // Anyone may leave.
    expect((await ctx.call('DELETE', `/companies/${company.id}/members/${driver.user.id}`, { token: driver.token })).status).toBe(200);
  });

  it('a member of company A never reads or changes company B', async () => {
    const a = await customer(ctx);
    const companyA = await newCompany(a.token);
    const b = await customer(ctx);
    const companyB = await newCompany(b.token);
    const bBooker = await customer(ctx);
    await join(b.token, companyB.id, bBooker, 'BOOKER');
    const t = a.token;
    const answers = [
      await ctx.call('GET', `/companies/${companyB.id}`, { token: t }),
      await ctx.call('GET', `/companies/${companyB.id}/members`, { token: t }),
      await ctx.call('POST', `/companies/${companyB.id}/invites`, { token: t, json: { channel: 'email', email: a.user.email, role: 'ADMIN' } }),
      await ctx.call('PUT', `/companies/${companyB.id}/members/${bBooker.user.id}`, { token: t, json: { role: 'ADMIN' } }),
      await ctx.call('DELETE', `/companies/${companyB.id}/members/${bBooker.user.id}`, { token: t }),
      await ctx.call('PUT', `/companies/${companyB.id}/settings`, { token: t, json: { approval_threshold: 1 } }),
      await ctx.call('PUT', `/companies/${companyB.id}/card`, { token: t, json: { billing_key: billingKey(ctx) } }),
      // A's admin managing B's member through A's id changes nothing either.
      await ctx.call('PUT', `/companies/${companyA.id}/members/${bBooker.user.id}`, { token: t, json: { role: 'ADMIN' } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    const members = await ctx.call('GET', `/companies/${companyB.id}/members`, { token: b.token });
    expect(members.body.data.members.map((m: { user_id: number; role: string }) => [m.user_id, m.role])).toEqual([[b.user.id, 'ADMIN'], [bBooker.user.id, 'BOOKER']]);
    const [rowB] = await ctx.database.db.select().from(companies).where(eq(companies.id, companyB.id));
    expect([rowB.approvalThreshold, rowB.billingKey]).toEqual([null, null]);
  });
});

describe('the company card', () => {
  it('is registered with a billing key and shown as its label; the key is claimed and a replaced one deleted', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    const key = billingKey(ctx);
    const res = await ctx.call('PUT', `/companies/${company.id}/card`, { token: admin.token, json: { billing_key: key } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.company.card).not.toBeNull();
    expect(JSON.stringify(res.body)).not.toContain(key);
    const [use] = await ctx.database.db.select().from(billingKeyUses).where(eq(billingKeyUses.billingKey, key));
    expect(use).toMatchObject({ service: 'COMPANY', orderId: company.id });
    // The same key again is the same answer; a key already behind something else is refused.
    expect((await ctx.call('PUT', `/companies/${company.id}/card`, { token: admin.token, json: { billing_key: key } })).status).toBe(200);
    const other = await customer(ctx);
    const otherCompany = await newCompany(other.token);
    expect((await ctx.call('PUT', `/companies/${otherCompany.id}/card`, { token: other.token, json: { billing_key: key } })).status).toBe(409);
    const next = billingKey(ctx);
    expect((await ctx.call('PUT', `/companies/${company.id}/card`, { token: admin.token, json: { billing_key: next } })).status).toBe(200);
    const [row] = await ctx.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row.billingKey).toBe(next);
    expect((await ctx.call('PUT', `/companies/${company.id}/card`, { token: admin.token, json: { billing_key: 'not-a-sandbox-key' } })).status).toBe(422);
  });
});

describe('the staff console', () => {
  const { admin: staff } = apiTools(() => ctx);

  it('lists and shows companies with their members, each read audited, and toggles 후불', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    const list = await staff('GET', `/admin/companies?q=${company.business_number}`);
    expect(list.status).toBe(200);
    expect(list.body.data.companies).toEqual([expect.objectContaining({ id: company.id, members: 1, billing: 'CARD' })]);
    const detail = await staff('GET', `/admin/companies/${company.id}`);
    expect(detail.body.data.members).toEqual([expect.objectContaining({ user_id: admin.user.id, role: 'ADMIN', removed_at: null })]);
    const reads = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company'), eq(auditLog.action, 'read')));
    expect(reads.map((r) => r.entityId)).toEqual(expect.arrayContaining([null, String(company.id)]));

    const on = await staff('PUT', `/admin/companies/${company.id}/billing`, { invoice_billing: true });
    expect(on.body.data.company.billing).toBe('INVOICE');
    expect((await ctx.call('GET', `/companies/${company.id}`, { token: admin.token })).body.data.company.billing).toBe('INVOICE');
    expect((await staff('PUT', `/admin/companies/${company.id}/billing`, { invoice_billing: 'yes' })).status).toBe(400);
    expect((await staff('GET', '/admin/companies/999999')).status).toBe(404);
  });

  it('is closed to customers, company admins included', async () => {
    const admin = await customer(ctx);
    const company = await newCompany(admin.token);
    expect((await ctx.call('GET', '/admin/companies', { token: admin.token })).status).toBe(403);
    expect((await ctx.call('PUT', `/admin/companies/${company.id}/billing`, { token: admin.token, json: { invoice_billing: true } })).status).toBe(403);
    expect((await ctx.call('GET', `/companies/${company.id}`, { token: admin.token })).body.data.company.billing).toBe('CARD');
  });
});
