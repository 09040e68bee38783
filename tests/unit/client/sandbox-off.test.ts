import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { issueBillingKey } from '../../../src/client/billing';
import { startIdentityVerification } from '../../../src/client/identity';

/**
 * A build made while the server's sandbox is off (PUBLIC_SANDBOX=off) never sends the browser to it.
 * Each test passes the build settings it is about: no PortOne store id, and the sandbox switch.
 */
const built = (sandbox: string | undefined) => ({ storeId: undefined, channelKey: undefined, sandbox });
const assign = vi.fn();
beforeEach(() => {
  vi.stubGlobal('location', { assign, origin: 'http://localhost', pathname: '/', search: '', href: 'http://localhost/' });
  assign.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sandbox off in the build', () => {
  it('refuses card registration with a Korean message instead of opening the sandbox', async () => {
    await expect(issueBillingKey({ redirectUrl: '/inquire', issueName: 'x', amount: 1, offerPeriod: { days: 30 } }, built('off'))).rejects.toThrow(/결제 수단 등록을 지금 사용할 수 없습니다/);
    expect(assign).not.toHaveBeenCalled();
  });
  it('refuses identity verification the same way', async () => {
    await expect(startIdentityVerification({ redirectUrl: '/signup' }, built('off'))).rejects.toThrow(/본인인증을 지금 사용할 수 없습니다/);
    expect(assign).not.toHaveBeenCalled();
  });
  it.each([
    ['says on', 'on'],
    ['says nothing (astro dev)', undefined],
  ])('opens the sandbox when the build %s', async (_, setting) => {
    await startIdentityVerification({ redirectUrl: '/signup' }, built(setting));
    expect(String(assign.mock.calls[0][0])).toContain('/api/sandbox/identity');
  });
});
