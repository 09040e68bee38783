import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { dotDate, formatKoreaDateTime } from '../../domain/dates';
import { MODIFICATION_LABEL, type TaxDocumentParty } from '../../domain/invoices';
import { won } from '../../domain/money';
import { sandboxTaxInvoices } from '../db/schema';
import { notFound } from '../errors';
import { validParams, validQuery, type AppEnv } from '../http';
import { isLocalClient } from './access';
import { isStaffRequest } from '../auth/guards';
import { sandboxPage } from './page';
import { sandboxTaxInvoiceKey } from '../invoices/sandbox-tax-invoices';
import { taxSandboxAllowed } from '../invoices/providers';

const ParamSchema = z.object({ id: z.string().regex(/^sbx-ti-[a-f0-9]{16}$/, { error: '세금계산서를 찾을 수 없습니다.' }) });
const QuerySchema = z.object({ key: z.string().max(64).optional() });

const brn = (n: string) => `${n.slice(0, 3)}-${n.slice(3, 5)}-${n.slice(5)}`;
const party = (title: string, p: TaxDocumentParty) => html`<h2>${title}</h2><dl class="receipt">
<dt>등록번호</dt><dd>${brn(p.business_number)}</dd><dt>상호</dt><dd>${p.name}</dd><dt>성명</dt><dd>${p.ceo}</dd>
<dt>사업장 주소</dt><dd>${p.address}</dd><dt>업태</dt><dd>${p.business_type}</dd><dt>종목</dt><dd>${p.business_item}</dd><dt>이메일</dt><dd>${p.email}</dd></dl>`;

/**
 * The tax-invoice sandbox's document page: what a 전자세금계산서 the sandbox issued says (승인번호,
 * 작성일자, both parties, 품목, 공급가액·세액·합계). Its recipient opens it with the keyed link; this
 * machine and staff without. One answer for a wrong key and an unknown id.
 */
export const sandboxTaxInvoiceRoutes = new Hono<AppEnv>().get('/tax-invoices/:id', validParams(ParamSchema), validQuery(QuerySchema), async (c) => {
  if (!taxSandboxAllowed(c.var.deps.config)) throw notFound('세금계산서 샌드박스는 개발·테스트 환경에서만 사용할 수 있습니다.');
  const { id } = c.req.valid('param');
  const { key } = c.req.valid('query');
  const expected = Buffer.from(sandboxTaxInvoiceKey(c.var.deps.config, id));
  const keyed = key !== undefined && Buffer.from(key).length === expected.length && timingSafeEqual(Buffer.from(key), expected);
  if (!keyed && !isLocalClient(c) && !(await isStaffRequest(c))) throw notFound('세금계산서를 찾을 수 없습니다.');
  const [row] = await c.var.deps.db.select().from(sandboxTaxInvoices).where(eq(sandboxTaxInvoices.id, id));
  if (!row) throw notFound('세금계산서를 찾을 수 없습니다.');
  const d = row.document;
  const amended = d.modification;
  return c.html(
    sandboxPage({
      title: `${amended ? '수정세금계산서' : '전자세금계산서'} ${row.approvalNumber} (샌드박스)`,
      notice: '테스트 환경 · 국세청에 전송되지 않은 샌드박스 문서입니다',
      heading: amended ? '수정전자세금계산서' : '전자세금계산서',
      body: html`<dl class="receipt" data-testid="tax-invoice-head">
<dt>승인번호</dt><dd data-testid="approval-number">${row.approvalNumber}</dd><dt>작성일자</dt><dd>${dotDate(d.write_date)}</dd>
<dt>구분</dt><dd>${d.purpose === 'RECEIPT' ? '영수' : '청구'}</dd>
${amended ? html`<dt>수정 사유</dt><dd>${MODIFICATION_LABEL[amended.type]}</dd><dt>당초 승인번호</dt><dd>${amended.original_approval_number}</dd>` : ''}
<dt>발행 일시</dt><dd>${formatKoreaDateTime(row.issuedAt)}</dd></dl>
${party('공급자', d.supplier)}${party('공급받는자', d.recipient)}
<h2>품목</h2><dl class="receipt" data-testid="tax-invoice-items">${d.items.map((i) => html`<dt>${dotDate(i.date)} ${i.name}${i.remark ? ` (${i.remark})` : ''}</dt><dd>${won(i.supply)} + 세액 ${won(i.vat)}</dd>`)}</dl>
<dl class="receipt" data-testid="tax-invoice-totals"><dt>공급가액</dt><dd>${won(d.supply)}</dd><dt>세액</dt><dd>${won(d.vat)}</dd><dt>합계금액</dt><dd>${won(d.total)}</dd></dl>
${d.remarks.length ? html`<p>비고: ${d.remarks.join(' · ')}</p>` : ''}
<p>보낸 곳: ${row.sentTo.map((s) => `${s.email} (${formatKoreaDateTime(s.at)})`).join(', ')}</p>
<div class="actions print-hide"><button class="ok" type="button" data-print>인쇄하기</button></div>`,
      script: '/scripts/print.js',
    }),
  );
});
