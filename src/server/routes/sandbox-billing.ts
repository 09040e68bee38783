import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { badRequest, notFound } from '../errors';
import { formBody, validQuery, type AppEnv } from '../http';
import { safeReturnUrl } from '../return-url';
import { sandboxPage } from '../sandbox-page';
import { issueSandboxBillingKey, sandboxAllowed } from '../services/payments';

const QuerySchema = z.object({
  redirectUrl: z.string({ error: 'redirectUrl이 필요합니다.' }).min(1, { error: 'redirectUrl이 필요합니다.' }).max(2000),
  issueName: z.string().max(200).optional(),
  amount: z.string().regex(/^\d{0,12}$/, { error: 'amount는 숫자여야 합니다.' }).optional(),
});

/**
 * The billing-key sandbox that stands in for PortOne while it is not configured: a labelled
 * test page whose buttons return to redirectUrl with PortOne's query contract. Refused when
 * PortOne is configured or in production.
 */
export const sandboxBillingRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    if (!sandboxAllowed(c.var.deps.config)) throw notFound('결제 샌드박스는 PortOne이 설정되지 않은 개발·테스트 환경에서만 사용할 수 있습니다.');
    await next();
  })
  .get('/billing-key', validQuery(QuerySchema), (c) => {
    const q = c.req.valid('query');
    safeReturnUrl(q.redirectUrl, c.req.header('host'), c.var.deps.config.siteUrl);
    const amount = q.amount ? `${Number(q.amount).toLocaleString('ko-KR')}원` : '표시 안 함';
    return c.html(
      sandboxPage({
        title: '테스트 결제창 (샌드박스)',
        notice: '테스트 환경 · 실제 결제가 아닙니다',
        heading: '카드 등록 (빌링키 발급) 샌드박스',
        body: html`<p>PortOne이 설정되지 않아 테스트용 결제창이 표시됩니다. 카드 정보는 입력하지 않으며 비용이 청구되지 않습니다.</p>
<dl><dt>주문명</dt><dd>${q.issueName ?? '-'}</dd><dt>표시 금액</dt><dd>${amount}</dd><dt>결제 수단</dt><dd>카드 (KRW)</dd></dl>
<form method="post" action="billing-key/approve" class="actions"><input type="hidden" name="redirectUrl" value="${q.redirectUrl}">
<button class="ok" type="submit">승인 (카드 등록 성공)</button>
<button class="fail" type="submit" formaction="billing-key/fail">실패 (카드 등록 실패)</button>
<button class="cancel" type="submit" formaction="billing-key/cancel">취소하고 돌아가기</button></form>`,
      }),
    );
  })
  .post('/billing-key/:outcome{approve|fail|cancel}', async (c) => {
    const form = await formBody(c);
    const redirectUrl = typeof form.redirectUrl === 'string' ? form.redirectUrl : '';
    if (!redirectUrl) throw badRequest('redirectUrl이 필요합니다.', { redirectUrl: ['redirectUrl이 필요합니다.'] });
    const url = safeReturnUrl(redirectUrl, c.req.header('host'), c.var.deps.config.siteUrl);
    const outcome = c.req.param('outcome');
    if (outcome === 'approve') {
      url.searchParams.set('billingKey', issueSandboxBillingKey(c.var.deps.config));
    } else if (outcome === 'cancel') {
      // The tester closed the window: PortOne answers a failure with the user's cancel.
      url.searchParams.set('code', 'FAILURE_TYPE_PG');
      url.searchParams.set('message', '카드 등록을 취소했습니다.');
    } else {
      url.searchParams.set('code', 'FAILURE_TYPE_PG');
      url.searchParams.set('message', '테스트 결제창에서 카드 등록이 거절되었습니다.');
    }
    url.searchParams.set('transactionType', 'ISSUE_BILLING_KEY');
    // Same-origin target: keep it relative so proxies and ports never change it.
    return c.redirect(`${url.pathname}${url.search}${url.hash}`, 303);
  });
