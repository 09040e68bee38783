import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../src/api/env';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { maskBillingKey } from '../../src/api/billing/ledger';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { createTestContext, type TestContext } from './helpers';

const portone = { storeId: 'store-1', apiSecret: 'secret-1', apiBaseUrl: 'https://portone.test', configured: true };

describe('billing-key verification', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());
  afterEach(() => vi.unstubAllGlobals());
  const provider = (config = testConfig()) => createPaymentProvider(ctx.database.db, config);

  it('sandbox keys verify only with the same secret and only while PortOne is off', async () => {
    const config = testConfig();
    const key = issueSandboxBillingKey(config);
    await expect(provider(config).verifyBillingKey(key)).resolves.toEqual({ issuer: '샌드박스카드', last4: expect.stringMatching(/^\d{4}$/) });
    // The same key names the same digits every time.
    expect(await provider(config).verifyBillingKey(key)).toEqual(await provider(config).verifyBillingKey(key));
    await expect(provider(testConfig({ jwtSecret: 'another-secret-another-secret-xx' })).verifyBillingKey(key)).rejects.toMatchObject({ status: 422 });
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify({ type: 'BILLING_KEY_NOT_FOUND' }), { status: 404 })));
    await expect(provider(testConfig({ portone })).verifyBillingKey(key)).rejects.toMatchObject({ status: 422 });
  });

  it('with PortOne: GET /billing-keys/{key} with the PortOne secret through the SDK; ISSUED passes, not found and DELETED fail, outages are 502', async () => {
    const calls: { url: string; auth: string | null }[] = [];
    const fake = (status: number, body: unknown) =>
      vi.stubGlobal('fetch', (url: string | URL | Request, init?: RequestInit) => {
        calls.push({ url: url instanceof Request ? url.url : url.toString(), auth: new Headers(init?.headers).get('authorization') });
        return Promise.resolve(new Response(JSON.stringify(body), { status }));
      });
    const p = provider(testConfig({ portone }));
    fake(200, { status: 'ISSUED' });
    await expect(p.verifyBillingKey('billing-key-1')).resolves.toBeNull();
    expect(calls[0].url).toMatch(/^https:\/\/portone\.test\/billing-keys\/billing-key-1/);
    expect(calls[0].auth).toBe('PortOne secret-1');
    // Issue 49: the card PortOne names (its name, the masked number's last four digits when they are digits).
    fake(200, { status: 'ISSUED', methods: [{ type: 'BillingKeyPaymentMethodCard', card: { name: '현대카드', issuer: 'CARD_COMPANY_HYUNDAI', number: '5365-10**-****-1234' } }] });
    await expect(p.verifyBillingKey('k')).resolves.toEqual({ issuer: '현대카드', last4: '1234' });
    fake(200, { status: 'ISSUED', methods: [{ type: 'BillingKeyPaymentMethodCard', card: { issuer: '신한카드', number: '4518-42**-****-****' } }] });
    await expect(p.verifyBillingKey('k')).resolves.toEqual({ issuer: '신한카드', last4: null });
    fake(200, { status: 'DELETED' });
    await expect(p.verifyBillingKey('k')).rejects.toMatchObject({ status: 422 });
    fake(404, { type: 'BILLING_KEY_NOT_FOUND', message: 'not found' });
    await expect(p.verifyBillingKey('k')).rejects.toMatchObject({ status: 422 });
    fake(500, { type: 'INTERNAL' });
    await expect(p.verifyBillingKey('k')).rejects.toMatchObject({ status: 502 });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('down')));
    await expect(p.verifyBillingKey('k')).rejects.toMatchObject({ status: 502 });
  });

  it('masks keys for display', () => {
    expect(maskBillingKey('billing-key-123456')).toBe('billin******3456');
    expect(maskBillingKey('short')).toBe('*****');
  });
});

describe('the sandbox page is refused when PortOne is configured', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ portone });
  });
  afterAll(() => ctx.close());
  it('404s', async () => {
    const res = await ctx.call('GET', '/sandbox/billing-key?redirectUrl=/inquire', { headers: { host: 'localhost' } });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/샌드박스/);
  });
});
