import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/server/env';
import { issueSandboxBillingKey, maskBillingKey, verifyBillingKey } from '../../src/server/services/payments';
import { createTestContext, type TestContext } from './helpers';

const portone = { storeId: 'store-1', apiSecret: 'secret-1', apiBaseUrl: 'https://portone.test', configured: true };

describe('billing-key verification', () => {
  it('sandbox keys verify only with the same secret and only while PortOne is off', async () => {
    const config = testConfig();
    const key = issueSandboxBillingKey(config);
    await expect(verifyBillingKey(config, key)).resolves.toBe('sandbox');
    await expect(verifyBillingKey(testConfig({ jwtSecret: 'another-secret-another-secret-xx' }), key)).rejects.toMatchObject({ status: 422 });
    await expect(verifyBillingKey(testConfig({ portone }), key, async () => new Response('{}'))).rejects.toMatchObject({ status: 422 });
  });

  it('with PortOne: GET /billing-keys/{key} with the PortOne secret; ISSUED passes, 404 and DELETED fail, outages are 502', async () => {
    const config = testConfig({ portone });
    const calls: { url: string; auth: string | null }[] = [];
    const fake = (status: number, body: unknown) => (async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), auth: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify(body), { status });
    }) as typeof fetch;
    await expect(verifyBillingKey(config, 'billing-key-1', fake(200, { status: 'ISSUED' }))).resolves.toBe('portone');
    expect(calls[0]).toEqual({ url: 'https://portone.test/billing-keys/billing-key-1', auth: 'PortOne secret-1' });
    await expect(verifyBillingKey(config, 'k', fake(200, { status: 'DELETED' }))).rejects.toMatchObject({ status: 422 });
    await expect(verifyBillingKey(config, 'k', fake(404, { type: 'BILLING_KEY_NOT_FOUND' }))).rejects.toMatchObject({ status: 422 });
    await expect(verifyBillingKey(config, 'k', fake(500, {}))).rejects.toMatchObject({ status: 502 });
    await expect(verifyBillingKey(config, 'k', (async () => { throw new TypeError('down'); }) as typeof fetch)).rejects.toMatchObject({ status: 502 });
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
