import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { billingFailed, issueBillingKey, withoutBillingReturn } from '../../../src/client/billing';
import { startIdentityVerification } from '../../../src/client/identity';
import { butlerOfferPeriod, termOfferPeriod } from '../../../src/domain/checkout';

/**
 * The PortOne branches of the browser clients, with the SDK module stood in for. Each test passes
 * the build settings it is about (the site's own come from astro:env, fixed per build).
 */
const sdk = vi.hoisted(() => ({ requestIssueBillingKey: vi.fn(), requestIdentityVerification: vi.fn() }));
vi.mock('@portone/browser-sdk/v2', () => sdk);

const sandbox = { storeId: undefined, channelKey: undefined, sandbox: 'on' };
const portone = (channelKey?: string) => ({ storeId: 'store-test', channelKey, sandbox: 'on' });

const assign = vi.fn();
beforeEach(() => {
  vi.stubGlobal('location', { assign, origin: 'http://localhost', pathname: '/', search: '' });
  sdk.requestIssueBillingKey.mockReset();
  sdk.requestIdentityVerification.mockReset();
  assign.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('issueBillingKey', () => {
  it('goes to the sandbox page without a PortOne store id', async () => {
    await expect(issueBillingKey({ redirectUrl: '/inquire?month=12&carId=3', issueName: 'Roma 12개월', amount: 2_000_000, offerPeriod: { days: 360 } }, sandbox)).resolves.toBeNull();
    expect(sdk.requestIssueBillingKey).not.toHaveBeenCalled();
    const url = new URL(assign.mock.calls[0][0], 'http://localhost');
    expect(url.pathname).toBe('/api/sandbox/billing-key');
    expect(url.searchParams.get('redirectUrl')).toBe('/inquire?month=12&carId=3');
    expect(url.searchParams.get('amount')).toBe('2000000');
  });

  it('asks PortOne for a card billing key in KRW over term × 30 days', async () => {
    sdk.requestIssueBillingKey.mockResolvedValue({ transactionType: 'ISSUE_BILLING_KEY', billingKey: 'billing-key-1' });
    const res = await issueBillingKey({ redirectUrl: 'http://localhost/inquire?month=6&carId=3', issueName: 'Roma 6개월', amount: 2_500_000, offerPeriod: termOfferPeriod(6) }, portone('channel-billing'));
    expect(sdk.requestIssueBillingKey).toHaveBeenCalledWith(
      expect.objectContaining({
        storeId: 'store-test',
        channelKey: 'channel-billing',
        billingKeyMethod: 'CARD',
        currency: 'KRW',
        displayAmount: 2_500_000,
        offerPeriod: { interval: '180d' },
        redirectUrl: 'http://localhost/inquire?month=6&carId=3',
      }),
    );
    expect(res).toEqual({ transactionType: 'ISSUE_BILLING_KEY', billingKey: 'billing-key-1', code: null, message: null });
    expect(assign).not.toHaveBeenCalled();
  });

  it('passes a provider failure back as code and message', async () => {
    sdk.requestIssueBillingKey.mockResolvedValue({ transactionType: 'ISSUE_BILLING_KEY', code: 'FAILURE_TYPE_PG', message: '카드 한도 초과' });
    const res = await issueBillingKey({ redirectUrl: '/inquire', issueName: 'x', amount: null, offerPeriod: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-01T08:00:00.000Z' } }, portone());
    expect(res).toMatchObject({ code: 'FAILURE_TYPE_PG', message: '카드 한도 초과', billingKey: null });
    expect(billingFailed(res!)).toBe(true);
    expect(sdk.requestIssueBillingKey.mock.calls[0][0]).not.toHaveProperty('currency');
    expect(sdk.requestIssueBillingKey.mock.calls[0][0].offerPeriod).toEqual({ range: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-01T08:00:00.000Z' } });
  });

  it('offers a butler card from now to 8 hours later', () => {
    const now = new Date('2026-12-01T09:30:00+09:00');
    expect(butlerOfferPeriod(now)).toEqual({ from: '2026-12-01T00:30:00.000Z', to: '2026-12-01T08:30:00.000Z' });
    expect(termOfferPeriod(12)).toEqual({ days: 360 });
  });

  it('drops the return query but keeps the page own query', () => {
    expect(withoutBillingReturn('http://x/inquire?month=6&carId=3&billingKey=k&transactionType=ISSUE_BILLING_KEY&code=F&message=m')).toBe('/inquire?month=6&carId=3');
  });
});

describe('startIdentityVerification', () => {
  it('goes to the sandbox page without a PortOne store id, carrying name and phone', async () => {
    await startIdentityVerification({ redirectUrl: '/signup', name: '홍길동', phone: '010-1234-5678' }, sandbox);
    const url = new URL(assign.mock.calls[0][0], 'http://localhost');
    expect(url.pathname).toBe('/api/sandbox/identity');
    expect(url.searchParams.get('identityVerificationId')).toMatch(/^identity-verification-/);
    expect(url.searchParams.get('name')).toBe('홍길동');
  });

  it('asks PortOne with a fresh id and the customer digits', async () => {
    sdk.requestIdentityVerification.mockResolvedValue({ transactionType: 'IDENTITY_VERIFICATION', identityVerificationId: 'x' });
    await startIdentityVerification({ redirectUrl: 'http://localhost/signup', name: '홍길동', phone: '010-1234-5678' }, portone('channel-identity'));
    expect(sdk.requestIdentityVerification).toHaveBeenCalledWith(
      expect.objectContaining({
        storeId: 'store-test',
        channelKey: 'channel-identity',
        identityVerificationId: expect.stringMatching(/^identity-verification-/),
        customer: { fullName: '홍길동', phoneNumber: '01012345678' },
      }),
    );
  });

  it('says 본인인증 창을 불러오지 못했습니다 (SDK not loaded) when the provider script cannot load', async () => {
    sdk.requestIdentityVerification.mockRejectedValue(new Error('[PortOne] Failed to load'));
    await expect(startIdentityVerification({ redirectUrl: '/signup' }, portone())).rejects.toThrow('본인인증 창을 불러오지 못했습니다.');
  });
});
