import { contentSecurityPolicy } from '../../src/api/security-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const form = (path: string, fields: Record<string, string>) =>
  ctx.app.request(path, { method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

describe('sandbox pages look like the site and say they are tests', () => {
  it('billing key: the site bar, a 테스트 notice, three ways out', async () => {
    const res = await ctx.app.request(`/sandbox/billing-key?redirectUrl=${encodeURIComponent('/inquire?month=12&carId=1')}&issueName=${encodeURIComponent('<b>x</b>')}&amount=3000000`, { headers: { host: 'localhost' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('TEST · 테스트 페이지');
    expect(html).toContain('테스트 환경 · 실제 결제가 아닙니다');
    expect(html).toContain('href="/fonts/pretendard/pretendard.css"');
    expect(html).toContain('href="/fonts/pretendard/core.css"'); // the core face: the subsets file leaves the core's characters out
    expect(html).toContain("font-family:Pretendard,system-ui,-apple-system,'Apple SD Gothic Neo'");
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    for (const label of ['승인 (카드 등록 성공)', '실패 (카드 등록 실패)', '취소하고 돌아가기']) expect(html).toContain(label);
    expect(html).toContain('formaction="billing-key/cancel"');
    // The test cards, and the site's CSP and frame protection.
    for (const label of ['승인 카드', '한도 초과 카드', '카드 거절 카드', '잔액 부족 카드', '응답 지연 카드']) expect(html).toContain(label);
    expect(res.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const identity = await ctx.app.request('/sandbox/identity?identityVerificationId=identity-verification-csp0001&redirectUrl=%2Fsignup', { headers: { host: 'localhost' } });
    expect(identity.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('billing key: cancel returns to the page with a failure and no key', async () => {
    const res = await form('/sandbox/billing-key/cancel', { redirectUrl: 'http://localhost/inquire?month=12&carId=1' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!, 'http://localhost');
    expect(back.pathname).toBe('/inquire');
    expect(back.searchParams.get('carId')).toBe('1');
    expect(back.searchParams.get('code')).toBe('FAILURE_TYPE_PG');
    expect(back.searchParams.get('message')).toBe('카드 등록을 취소했습니다.');
    expect(back.searchParams.get('transactionType')).toBe('ISSUE_BILLING_KEY');
    expect(back.searchParams.get('billingKey')).toBeNull();
  });

  it('identity: the same shell, and cancel returns with a failure for the same verification', async () => {
    const page = await ctx.app.request('/sandbox/identity?identityVerificationId=identity-verification-cancel01&redirectUrl=%2Fsignup', { headers: { host: 'localhost' } });
    const html = await page.text();
    expect(html).toContain('TEST · 테스트 페이지');
    expect(html).toContain('테스트 환경 · 실제 본인인증이 아닙니다');
    expect(html).toContain('formaction="identity/cancel"');
    const res = await form('/sandbox/identity/cancel', { identityVerificationId: 'identity-verification-cancel01', redirectUrl: 'http://localhost/signup', name: '', phone: '' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!, 'http://localhost');
    expect(back.pathname).toBe('/signup');
    expect(back.searchParams.get('identityVerificationId')).toBe('identity-verification-cancel01');
    expect(back.searchParams.get('code')).toBe('IDENTITY_VERIFICATION_FAILED');
    expect(back.searchParams.get('message')).toBe('본인인증을 취소했습니다.');
  });

  it('an unknown outcome is not a route', async () => {
    expect((await form('/sandbox/billing-key/maybe', { redirectUrl: '/inquire' })).status).toBe(404);
  });
});
