import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { badRequest, notFound } from '../errors';
import { validQuery, type AppEnv } from '../http';
import { safeReturnUrl } from '../return-url';
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
    return c.html(html`<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>테스트 결제창 (샌드박스)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111}
.badge{display:inline-block;background:#b91c1c;color:#fff;padding:.2rem .6rem;border-radius:.3rem;font-weight:700}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}button{font-size:1rem;padding:.7rem 1.2rem;margin:.3rem .3rem 0 0;border-radius:.4rem;border:1px solid #111;cursor:pointer}
.ok{background:#111;color:#fff}</style></head>
<body><p class="badge">테스트 환경 · 실제 결제가 아닙니다</p>
<h1>카드 등록 (빌링키 발급) 샌드박스</h1>
<p>PortOne이 설정되지 않아 테스트용 결제창이 표시됩니다. 카드 정보는 입력하지 않으며 비용이 청구되지 않습니다.</p>
<dl><dt>주문명</dt><dd>${q.issueName ?? '-'}</dd><dt>표시 금액</dt><dd>${amount}</dd><dt>결제 수단</dt><dd>카드 (KRW)</dd></dl>
<form method="post" action="billing-key/approve"><input type="hidden" name="redirectUrl" value="${q.redirectUrl}">
<button class="ok" type="submit">승인 (카드 등록 성공)</button>
<button type="submit" formaction="billing-key/fail">실패 (카드 등록 실패)</button></form>
</body></html>`);
  })
  .post('/billing-key/:outcome{approve|fail}', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const redirectUrl = typeof form.redirectUrl === 'string' ? form.redirectUrl : '';
    if (!redirectUrl) throw badRequest('redirectUrl이 필요합니다.', { redirectUrl: ['redirectUrl이 필요합니다.'] });
    const url = safeReturnUrl(redirectUrl, c.req.header('host'), c.var.deps.config.siteUrl);
    if (c.req.param('outcome') === 'approve') {
      url.searchParams.set('billingKey', issueSandboxBillingKey(c.var.deps.config));
    } else {
      url.searchParams.set('code', 'FAILURE_TYPE_PG');
      url.searchParams.set('message', '테스트 결제창에서 카드 등록이 거절되었습니다.');
    }
    url.searchParams.set('transactionType', 'ISSUE_BILLING_KEY');
    // Same-origin target: keep it relative so proxies and ports never change it.
    return c.redirect(`${url.pathname}${url.search}${url.hash}`, 303);
  });
