import { randomUUID, timingSafeEqual } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { cardTaxNote } from '../../domain/invoices';
import { cardTaxInvoiceOf, companyOfPayment } from '../invoices/card-tax-invoices';
import { html } from 'hono/html';
import { z } from 'zod';
import { businessLines } from '../../domain/business';
import { formatKoreaDateTime } from '../../domain/dates';
import { won } from '../../domain/money';
import { vatLines } from '../../domain/vat';
import { PAYMENT_STATUS_LABEL } from '../../domain/payments';
import { payments, sandboxPayments } from '../db/schema';
import { paymentPartsOf, toPaymentView } from '../billing/ledger';
import { badRequest, notFound } from '../errors';
import { formBody, validParams, validQuery, type AppEnv } from '../http';
import { isLocalClient, localOrShared, localOrStaff, sandboxOnly } from './access';
import { isStaffRequest } from '../auth/guards';
import { safeReturnUrl } from '../return-url';
import { sandboxPage } from './page';
import { handleWebhook } from '../billing/webhooks';
import { issueSandboxBillingKey, sandboxCardFrom, sandboxReceiptKey, sandboxWebhookSecret, type SandboxCard } from '../billing/sandbox-provider';
import { signStandardWebhook } from '../billing/webhook-signing';
import { wallMs } from '../jobs/clock';

const QuerySchema = z.object({
  redirectUrl: z.string({ error: 'redirectUrl이 필요합니다.' }).min(1, { error: 'redirectUrl이 필요합니다.' }).max(2000),
  issueName: z.string().max(200).optional(),
  amount: z.string().regex(/^\d{0,12}$/, { error: 'amount는 숫자여야 합니다.' }).optional(),
});

const PaymentParamSchema = z.object({ id: z.string().regex(/^[a-z0-9-]{1,80}$/, { error: '결제를 찾을 수 없습니다.' }) });
const ReceiptQuerySchema = z.object({ key: z.string().max(64).optional() });

/** The test cards of the card page: what every charge made with the card does. */
const TEST_CARDS: { card: SandboxCard; label: string; note: string }[] = [
  { card: 'approve', label: '승인 카드', note: '결제가 항상 승인됩니다.' },
  { card: 'decline-limit', label: '한도 초과 카드', note: '카드 등록은 되지만 결제가 한도 초과로 거절됩니다.' },
  { card: 'decline-rejected', label: '카드 거절 카드', note: '카드 등록은 되지만 카드사가 결제를 거절합니다.' },
  { card: 'insufficient', label: '잔액 부족 카드', note: '카드 등록은 되지만 잔액 부족으로 결제되지 않습니다.' },
  { card: 'slow', label: '응답 지연 카드', note: '결제 응답이 15초 뒤에 옵니다 (시간 초과 시험용).' },
];

/**
 * The payment sandbox that stands in for PortOne while it is not configured: a labelled card page
 * whose buttons return to redirectUrl with PortOne's query contract (the chosen test card decides
 * every later charge), printable receipts of sandbox payments, and a console that cancels a
 * payment on the provider's side and sends the signed webhook, as PortOne's console would.
 * Refused when PortOne is configured or in production. Who may use what (sandbox-access.ts): the card
 * page this machine (others with SANDBOX=shared), the console this machine and staff, a receipt
 * its payer (the keyed link), staff and this machine.
 */
export const sandboxBillingRoutes = new Hono<AppEnv>()
  .use(sandboxOnly('결제 샌드박스는 PortOne이 설정되지 않은 개발·테스트 환경에서만 사용할 수 있습니다.'))
  .use('/billing-key', localOrShared)
  .use('/billing-key/*', localOrShared)
  .use('/console', localOrStaff)
  .use('/console/*', localOrStaff)
  .get('/billing-key', validQuery(QuerySchema), (c) => {
    const q = c.req.valid('query');
    safeReturnUrl(q.redirectUrl, c.req.header('host'), c.var.deps.config.siteUrl);
    const amount = q.amount ? won(Number(q.amount)) : '표시 안 함';
    return c.html(
      sandboxPage({
        title: '테스트 결제창 (샌드박스)',
        notice: '테스트 환경 · 실제 결제가 아닙니다',
        heading: '카드 등록 (빌링키 발급) 샌드박스',
        body: html`<p>PortOne이 설정되지 않아 테스트용 결제창이 표시됩니다. 실제 카드 정보는 입력하지 않으며 실제로 청구되지 않습니다. 아래에서 테스트 카드를 고르면 이후 결제가 그 카드처럼 처리됩니다.</p>
<dl><dt>주문명</dt><dd>${q.issueName ?? '-'}</dd><dt>표시 금액</dt><dd>${amount}</dd><dt>결제 수단</dt><dd>카드 (KRW)</dd></dl>
<form method="post" action="billing-key/approve"><input type="hidden" name="redirectUrl" value="${q.redirectUrl}">
<fieldset class="cards"><legend>테스트 카드</legend>
${TEST_CARDS.map((t, i) => html`<label class="card-option"><input type="radio" name="charges" value="${t.card}" ${i === 0 ? 'checked' : ''}><span><strong>${t.label}</strong><small>${t.note}</small></span></label>`)}
</fieldset>
<div class="actions">
<button class="ok" type="submit">승인 (카드 등록 성공)</button>
<button class="fail" type="submit" formaction="billing-key/fail">실패 (카드 등록 실패)</button>
<button class="cancel" type="submit" formaction="billing-key/cancel">취소하고 돌아가기</button></div></form>`,
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
      const card = sandboxCardFrom(form.charges, form.decline_reason);
      if (!card) throw badRequest('charges는 approve, decline, insufficient, slow 중 하나여야 합니다.', { charges: ['알 수 없는 테스트 카드입니다.'] });
      url.searchParams.set('billingKey', issueSandboxBillingKey(c.var.deps.config, card));
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
  })
  .get('/receipts/:id', validParams(PaymentParamSchema), validQuery(ReceiptQuerySchema), async (c) => {
    const id = c.req.valid('param').id;
    const { key } = c.req.valid('query');
    const keyed = key !== undefined && safeEqual(key, sandboxReceiptKey(c.var.deps.config, id));
    // One answer for a wrong key and an unknown payment: a stranger learns nothing of which ids exist.
    if (!keyed && !isLocalClient(c) && !(await isStaffRequest(c))) throw notFound('영수증을 찾을 수 없습니다.');
    const [p] = await c.var.deps.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, id));
    if (!p || p.status === 'FAILED') throw notFound('영수증을 찾을 수 없습니다.');
    // What the charge is and, for a first payment, what it is made of (the ledger's one label).
    const [ours] = await c.var.deps.db.select().from(payments).where(eq(payments.id, id));
    const view = ours ? toPaymentView(ours, (await paymentPartsOf(c.var.deps.db, [ours]))(ours)) : null;
    // A company's card payment: which document is its tax evidence (the slip, or the 세금계산서 issued instead).
    const taxNote = ours && (await companyOfPayment(c.var.deps.db, ours)) ? cardTaxNote(c.var.deps.config.invoices.cardDocument, (await cardTaxInvoiceOf(c.var.deps.db, ours.id))?.approvalNumber ?? null) : null;
    return c.html(
      sandboxPage({
        title: `영수증 ${p.paymentId} (샌드박스)`,
        notice: '테스트 환경 · 실제 결제가 아닙니다',
        heading: '카드 결제 영수증',
        body: html`<dl class="receipt">
<dt>결제 번호</dt><dd>${p.paymentId}</dd><dt>승인 번호</dt><dd>${p.pgTxId}</dd><dt>주문명</dt><dd>${p.orderName}</dd>
${view ? html`<dt>결제 항목</dt><dd>${view.label}</dd>` : ''}
${(view?.lines ?? []).filter((l) => l.label !== '합계').map((l) => html`<dt>${l.label}</dt><dd>${won(l.amount)}</dd>`)}
<dt>결제 금액</dt><dd>${won(p.amount)}</dd>
${p.cancelledAmount ? html`<dt>취소 금액</dt><dd>${won(p.cancelledAmount)}</dd>` : ''}
${vatLines(p.amount - p.cancelledAmount).map((l) => html`<dt data-testid="receipt-vat">${l.label}${p.cancelledAmount ? ' (취소 후)' : ''}</dt><dd>${won(l.amount)}</dd>`)}
<dt>상태</dt><dd>${PAYMENT_STATUS_LABEL[p.status]}</dd><dt>결제 일시</dt><dd>${p.paidAt ? formatKoreaDateTime(p.paidAt) : '-'}</dd>
<dt>가맹점</dt><dd>LUXE 구독</dd></dl>
${taxNote ? html`<p data-testid="receipt-tax-document">${taxNote}</p>` : ''}
<h2>판매자 정보</h2>
<dl class="receipt" data-testid="receipt-seller">${businessLines(c.var.deps.config.company).map((l) => html`<dt>${l.label}</dt><dd>${l.value}</dd>`)}</dl>
<div class="actions print-hide"><button class="ok" type="button" data-print>인쇄하기</button></div>`,
        script: '/scripts/print.js',
      }),
    );
  })
  .get('/console', async (c) => {
    const rows = await c.var.deps.db.select().from(sandboxPayments).orderBy(desc(sandboxPayments.createdAt)).limit(50);
    return c.html(
      sandboxPage({
        title: '결제사 콘솔 (샌드박스)',
        notice: '테스트 환경 · 결제사(PortOne) 관리자 화면 대용',
        heading: '샌드박스 결제 내역',
        body: html`<p>결제사 쪽에서 결제를 취소하면 서비스에 웹훅이 전달되어 결제 내역이 맞춰집니다.</p>
${rows.length ? '' : html`<p>아직 결제가 없습니다.</p>`}
${rows.map(
  (p) => html`<form method="post" action="console/payments/${p.paymentId}/cancel" class="console-row">
<p><strong>${p.paymentId}</strong> · ${p.orderName}<br>${won(p.amount)} · ${PAYMENT_STATUS_LABEL[p.status]}${p.cancelledAmount ? ` (취소 ${won(p.cancelledAmount)})` : ''}</p>
${p.status === 'PAID' || p.status === 'PARTIAL_CANCELLED' ? html`<button class="fail" type="submit">결제사에서 전액 취소</button>` : ''}</form>`,
)}`,
      }),
    );
  })
  .post('/console/payments/:id/cancel', validParams(PaymentParamSchema), async (c) => {
    const id = c.req.valid('param').id;
    const { deps } = c.var;
    const remote = await deps.payments.getPayment(id);
    if (!remote || (remote.status !== 'PAID' && remote.status !== 'PARTIAL_CANCELLED')) throw notFound('취소할 수 있는 결제가 없습니다.');
    await deps.payments.cancel({ paymentId: id, reason: '결제사 콘솔에서 취소', currentCancellableAmount: remote.amount - remote.cancelledAmount });
    // The provider tells us, as PortOne would: a signed Transaction.Cancelled webhook to our endpoint.
    const body = JSON.stringify({ type: 'Transaction.Cancelled', timestamp: new Date(wallMs()).toISOString(), data: { paymentId: id, transactionId: id } });
    await handleWebhook(deps, body, signStandardWebhook(sandboxWebhookSecret(deps.config), `sandbox-wh-${randomUUID()}`, body));
    return c.redirect('../../../console', 303);
  });

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
