import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar, insertUser } from '../../src/api/seed/factories';
import { sandboxPayments } from '../../src/api/db/schema';
import { openSession } from '../../src/api/accounts/sessions';
import { loadConfig } from '../../src/api/env';
import { SANDBOX_VERIFICATIONS } from '../../src/api/sandbox/identity-routes';
import { listensOnLoopbackOnly, providerBanner } from '../../src/api/sandbox-mode';
import { billingKey, createTestContext, customer, newPerson, signupPerson, type TestContext, PRODUCTION_BUSINESS_ENV } from './helpers';

/**
 * The sandbox on a server other machines can reach: everyone's messages, the provider's console and
 * payments answer this machine and staff only; a receipt answers its payer's keyed link; the card
 * and identity pages answer other machines only with SANDBOX=shared, where verifying as an existing
 * member is refused and verifications are limited per address.
 */

/** A request as @hono/node-server hands it over: the socket's peer address in the bindings. */
const fromPeer = (address: string) => ({ incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: address.includes(':') ? 'IPv6' : 'IPv4' } } });
const STRANGER = '203.0.113.9';

/** A customer's paid first month (a new car each time, so orders never meet). */
async function orderPaid(ctx: TestContext) {
  const { token } = await customer(ctx);
  const { car } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000 } });
  const res = await ctx.call('POST', `/subscriptions/cars/${car.id}/request`, { token, json: { month: 1, billing_key: billingKey(ctx) } });
  expect(res.status).toBe(201);
  return { token, payment: res.body.data.payment as { id: string; receipt_url: string } };
}

async function staffToken(ctx: TestContext) {
  const staff = await insertUser(ctx.database.db, { role: 'staff' });
  return (await openSession(ctx.database.db, ctx.config, staff.id)).access_token;
}

const identityForm = (phone: string, name = '김철수') =>
  new URLSearchParams({ identityVerificationId: `identity-verification-${Math.random().toString(36).slice(2, 12)}`, redirectUrl: '/signup', name, phone, birthDate: '1990-01-01' }).toString();

describe('a server reachable from the network, sandbox on (the default)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: 'development' });
  });
  afterAll(() => ctx.close());

  const asStranger = (path: string, init: RequestInit = {}) => ctx.app.request(path, { ...init, headers: { host: 'luxe.example', ...(init.headers as Record<string, string>) } }, fromPeer(STRANGER));
  const asLocal = (path: string, init: RequestInit = {}) => ctx.app.request(path, { ...init, headers: { host: 'localhost:4321', ...(init.headers as Record<string, string>) } }, fromPeer('127.0.0.1'));

  it("another machine cannot read anyone's messages: the outbox answers 403, as JSON and as a page", async () => {
    await orderPaid(ctx);
    const json = await asStranger('/sandbox/outbox');
    expect(json.status).toBe(403);
    const body = await json.json();
    expect(body.message).toMatch(/서버가 실행 중인 컴퓨터나 직원 계정/);
    expect(JSON.stringify(body)).not.toMatch(/@example\.com|010\d{8}/);
    expect((await asStranger('/sandbox/outbox?to=a%40example.com')).status).toBe(403);
    const page = await asStranger('/sandbox/outbox/page', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(await page.text()).toMatch(/서버가 실행 중인 컴퓨터나 직원 계정/);
    // This machine still reads it with no settings.
    const local = await asLocal('/sandbox/outbox');
    expect(local.status).toBe(200);
    expect((await local.json()).data.messages).toEqual(expect.any(Array));
  });

  it('another machine cannot refund a payment through the provider console, nor list the payments', async () => {
    const { payment } = await orderPaid(ctx);
    const cancel = await asStranger(`/sandbox/console/payments/${payment.id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(403);
    const [row] = await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, payment.id));
    expect(row).toMatchObject({ status: 'PAID', cancelledAmount: 0 });
    expect((await asStranger('/sandbox/console', { headers: { accept: 'text/html' } })).status).toBe(403);
  });

  it('a cross-site form post to this machine is refused too (another site cannot drive the console)', async () => {
    const { payment } = await orderPaid(ctx);
    const res = await asLocal(`/sandbox/console/payments/${payment.id}/cancel`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(403);
    const [row] = await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, payment.id));
    expect(row.status).toBe('PAID');
  });

  it('a loopback socket with another Host (a rebound DNS name) or forwarded by an untrusted proxy counts as another machine', async () => {
    expect((await ctx.app.request('/sandbox/outbox', { headers: { host: 'evil.example' } }, fromPeer('127.0.0.1'))).status).toBe(403);
    expect((await ctx.app.request('/sandbox/outbox', { headers: { host: 'localhost', 'x-forwarded-for': '127.0.0.1' } }, fromPeer('127.0.0.1'))).status).toBe(403);
    expect((await ctx.app.request('/sandbox/outbox', { headers: { host: 'localhost', 'x-real-ip': STRANGER } }, fromPeer('127.0.0.1'))).status).toBe(403);
    expect((await ctx.app.request('/sandbox/outbox', { headers: { host: '127.0.0.1:4321' } }, fromPeer('::ffff:127.0.0.1'))).status).toBe(200);
  });

  it('staff read the outbox and use the console from any machine', async () => {
    const token = await staffToken(ctx);
    const { payment } = await orderPaid(ctx);
    expect((await asStranger('/sandbox/outbox', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const cancel = await asStranger(`/sandbox/console/payments/${payment.id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(cancel.status).toBe(303);
    // A customer's session is not staff.
    const { token: customerToken } = await customer(ctx);
    expect((await asStranger('/sandbox/outbox', { headers: { authorization: `Bearer ${customerToken}` } })).status).toBe(403);
  });

  it("a receipt opens from its payer's keyed link on any machine; a guessed id or a wrong key is 404", async () => {
    const { token, payment } = await orderPaid(ctx);
    expect(payment.receipt_url).toMatch(new RegExp(`^/api/sandbox/receipts/${payment.id}\\?key=[\\w-]{32}$`));
    const mine = (await ctx.call('GET', `/payments/${payment.id}`, { token })).body.data.payment;
    expect(mine.receipt_url).toBe(payment.receipt_url);
    const keyed = await asStranger(payment.receipt_url.replace('/api', ''));
    expect(keyed.status).toBe(200);
    expect(await keyed.text()).toMatch(/카드 결제 영수증/);
    const guessed = await asStranger(`/sandbox/receipts/${payment.id}`);
    expect(guessed.status).toBe(404);
    const other = await orderPaid(ctx);
    const key = new URL(payment.receipt_url, 'http://x').searchParams.get('key')!;
    expect((await asStranger(`/sandbox/receipts/${other.payment.id}?key=${key}`)).status).toBe(404);
    // This machine prints any receipt.
    expect((await asLocal(`/sandbox/receipts/${other.payment.id}`)).status).toBe(200);
  });

  it('another machine cannot use the card page or verify as anyone: 403, nothing recorded', async () => {
    const card = await asStranger('/sandbox/billing-key?redirectUrl=%2Finquire', { headers: { accept: 'text/html' } });
    expect(card.status).toBe(403);
    expect(await card.text()).toMatch(/SANDBOX=shared/);
    const approve = await asStranger('/sandbox/billing-key/approve', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'redirectUrl=%2Finquire&charges=approve' });
    expect(approve.status).toBe(403);
    expect((await asStranger('/sandbox/identity?identityVerificationId=identity-verification-abc12345&redirectUrl=%2Fsignup')).status).toBe(403);
    const { person } = await signupPerson(ctx);
    const verify = await asStranger('/sandbox/identity/verify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: identityForm(person.mobile, person.name) });
    expect(verify.status).toBe(403);
  });
});

describe('SANDBOX=shared (a staging demo for other devices)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: 'development', sandboxShared: true });
  });
  afterAll(() => ctx.close());

  const asStranger = (path: string, init: RequestInit = {}, ip = STRANGER) => ctx.app.request(path, { ...init, headers: { host: 'staging.example', ...(init.headers as Record<string, string>) } }, fromPeer(ip));
  const verify = (phone: string, ip = STRANGER, name = '김철수') => asStranger('/sandbox/identity/verify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: identityForm(phone, name) }, ip);

  it('other machines register test cards and verify new people', async () => {
    expect((await asStranger('/sandbox/billing-key?redirectUrl=%2Finquire')).status).toBe(200);
    const approve = await asStranger('/sandbox/billing-key/approve', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'redirectUrl=%2Finquire&charges=approve' });
    expect(approve.status).toBe(303);
    expect(approve.headers.get('location')).toMatch(/billingKey=/);
    expect((await verify(newPerson().mobile)).status).toBe(303);
  });

  it("never as an existing member (whose password reset would hand over the account), whoever's number it is", async () => {
    const { person } = await signupPerson(ctx);
    const res = await verify(person.mobile, '198.51.100.7', person.name);
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/이미 가입된 회원의 휴대폰 번호/);
  });

  it(`at most ${SANDBOX_VERIFICATIONS.max} verifications per address in ${SANDBOX_VERIFICATIONS.windowMs / 60_000} minutes, then 429`, async () => {
    const ip = '198.51.100.99';
    for (let i = 0; i < SANDBOX_VERIFICATIONS.max; i++) expect((await verify(newPerson().mobile, ip)).status).toBe(303);
    expect((await verify(newPerson().mobile, ip)).status).toBe(429);
    expect((await verify(newPerson().mobile, '198.51.100.100')).status).toBe(303);
  });

  it("the outbox and the console still answer this machine and staff only", async () => {
    expect((await asStranger('/sandbox/outbox')).status).toBe(403);
    expect((await asStranger('/sandbox/console')).status).toBe(403);
  });
});

describe('over a real socket, through a trusted proxy on this machine', () => {
  let ctx: TestContext;
  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext({ env: 'development', trustProxy: ['127.0.0.0/8'] });
    server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await ctx.close();
  });

  it("the proxy's client on another machine is refused; a client on this machine (no proxy) is served", async () => {
    const remote = await fetch(`${base}/sandbox/outbox`, { headers: { 'x-forwarded-for': STRANGER } });
    expect(remote.status).toBe(403);
    expect((await fetch(`${base}/sandbox/console`, { headers: { 'x-forwarded-for': STRANGER } })).status).toBe(403);
    expect((await fetch(`${base}/sandbox/billing-key?redirectUrl=%2Finquire`, { headers: { 'x-forwarded-for': STRANGER } })).status).toBe(403);
    expect((await fetch(`${base}/sandbox/outbox`)).status).toBe(200);
    expect((await fetch(`${base}/sandbox/outbox`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(200);
  });
});

describe('the default start', () => {
  const env = (extra: Record<string, string>) => loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(32), ...extra });

  it('listens on loopback unless HOST says otherwise; production listens on every interface', () => {
    expect(env({}).host).toBe('127.0.0.1');
    expect(listensOnLoopbackOnly(env({}))).toBe(true);
    expect(env({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(listensOnLoopbackOnly(env({ HOST: '0.0.0.0' }))).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p', ...PRODUCTION_BUSINESS_ENV }).host).toBe('0.0.0.0');
  });

  it('says who can reach it and what the sandbox lets them do; SANDBOX=shared is loud and refused in production', () => {
    expect(providerBanner(env({}))).toMatch(/이 컴퓨터에서만 접속할 수 있습니다[\s\S]*other machines get 403/);
    expect(providerBanner(env({ HOST: '0.0.0.0' }))).toMatch(/다른 기기에서도 접속할 수 있습니다/);
    expect(env({ SANDBOX: 'shared' }).sandboxShared).toBe(true);
    expect(providerBanner(env({ SANDBOX: 'shared', HOST: '0.0.0.0' }))).toMatch(/SANDBOX=shared[\s\S]*never as an existing member/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p', SANDBOX: 'shared' })).toThrow(/SANDBOX=shared/);
  });
});
