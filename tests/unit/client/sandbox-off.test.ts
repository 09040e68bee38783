import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A build made while the server's sandbox is off (PUBLIC_SANDBOX=off) never sends the browser to it. */
const assign = vi.fn();
beforeEach(() => {
  vi.stubGlobal('location', { assign, origin: 'http://localhost', pathname: '/', search: '', href: 'http://localhost/' });
  vi.stubEnv('PUBLIC_PORTONE_STORE_ID', '');
  assign.mockReset();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('sandbox off in the build', () => {
  it('refuses card registration with a Korean message instead of opening the sandbox', async () => {
    vi.stubEnv('PUBLIC_SANDBOX', 'off');
    const { issueBillingKey } = await import('../../../src/client/billing');
    await expect(issueBillingKey({ redirectUrl: '/inquire', issueName: 'x', amount: 1, offerPeriod: { days: 30 } })).rejects.toThrow(/결제 수단 등록을 지금 사용할 수 없습니다/);
    expect(assign).not.toHaveBeenCalled();
  });
  it('refuses identity verification the same way', async () => {
    vi.stubEnv('PUBLIC_SANDBOX', 'off');
    const { startIdentityVerification } = await import('../../../src/client/identity');
    await expect(startIdentityVerification({ redirectUrl: '/signup' })).rejects.toThrow(/본인인증을 지금 사용할 수 없습니다/);
    expect(assign).not.toHaveBeenCalled();
  });
  it('opens the sandbox when the build says on (or says nothing, as astro dev)', async () => {
    vi.stubEnv('PUBLIC_SANDBOX', 'on');
    const { startIdentityVerification } = await import('../../../src/client/identity');
    await startIdentityVerification({ redirectUrl: '/signup' });
    expect(String(assign.mock.calls[0][0])).toContain('/api/sandbox/identity');
  });
});
