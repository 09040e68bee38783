import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { businessCheckDigit } from '../../src/domain/business';
import { notificationMessages } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { billingKey, customer, type TestContext } from './helpers';

/** Company (법인) fixtures of the API tests: valid business numbers, a company with its admin, members joined by invite. */

let serial = 100_000 + (Date.now() % 50_000);
/** A fresh valid 사업자등록번호 whose 4th–5th digits are `kind` (the sandbox's case: 99 폐업, 98 휴업, 97 없음, 96 unreachable, 95 the register 김대표 / 2015-03-02). */
export function businessNumber(kind = '81'): string {
  serial += 1;
  const nine = `${String(serial).slice(-3)}${kind}${String(serial).slice(-4)}`;
  return `${nine}${businessCheckDigit(nine)}`;
}

export const companyBody = (overrides: Record<string, unknown> = {}) => ({
  name: '주식회사 테스트', business_number: businessNumber(), ceo: '홍길동', opened_on: '2018-05-02', business_type: '서비스', business_item: '소프트웨어 개발',
  address: '서울특별시 강남구 테헤란로 1', invoice_email: 'tax@example.com', ...overrides,
});

export async function newCompany(ctx: TestContext, token: string, overrides: Record<string, unknown> = {}) {
  const res = await ctx.call('POST', '/companies', { token, json: companyBody(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.company as { id: number; business_number: string };
}

/** A company, its admin and (with `card`) its registered card. */
export async function companyWithAdmin(ctx: TestContext, { card = true } = {}) {
  const admin = await customer(ctx);
  const company = await newCompany(ctx, admin.token);
  if (card) expect((await ctx.call('PUT', `/companies/${company.id}/card`, { token: admin.token, json: { billing_key: billingKey(ctx) } })).status).toBe(200);
  return { admin, company };
}

/** The code of the newest invite message sent to `to` (the link /my/company/join?code=CODE). */
export async function inviteCodeSentTo(ctx: TestContext, to: string): Promise<string> {
  await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
  const rows = await ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'company.invited'), eq(notificationMessages.to, to)));
  const last = rows.sort((a, b) => b.id - a.id)[0];
  expect(last, `no invite to ${to}`).toBeTruthy();
  return /\/my\/company\/join\?code=([\w-]+)/.exec(last.text)![1];
}

/** Invites `member` (by email) into the company as `role` and accepts with their token; the code. */
export async function join(ctx: TestContext, adminToken: string, companyId: number, member: Awaited<ReturnType<typeof customer>>, role: string) {
  const inv = await ctx.call('POST', `/companies/${companyId}/invites`, { token: adminToken, json: { channel: 'email', email: member.user.email, role } });
  expect(inv.status, JSON.stringify(inv.body)).toBe(201);
  const code = await inviteCodeSentTo(ctx, member.user.email!);
  const res = await ctx.call('POST', '/companies/invites/accept', { token: member.token, json: { code } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return code;
}
