import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { TestStatementSchema } from '../../domain/schemas/invoices';
import { AdminInvoicesQuerySchema, AdminTaxInvoicesQuerySchema, CompanyStatementParamSchema, CreditLineSchema, ReissueSchema, StatementRunSchema } from '../../domain/schemas/invoices';
import { inTransaction } from '../db/client';
import { companyInvoices } from '../db/schema';
import { conflict, notFound } from '../errors';
import { ok, validJson, validParams, validQuery, type AppEnv } from '../http';
import { requireFixtures, requireMachine, requireUser } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { ADMIN_PAGE_SIZE } from '../pagination';
import { issueMonthStatements } from './statements';
import { insertTestCardTaxInvoice, insertTestCreditStatement, insertTestStatement } from './test-fixture';
import { creditLine, reissueTaxInvoice, resendTaxInvoice, TAX_INVOICE_JOB } from './tax-invoices';
import { adminStatements, companyStatement, staffStatements, staffTaxInvoices, statementView, taxInvoiceView } from './views';

/** A company admin's statements (후불): only the companies they administer (docs/decisions/business-invoices.md). */
export const companyStatementRoutes = new Hono<AppEnv>()
  .get('/statements', requireUser, async (c) => ok(c, { companies: await adminStatements(c.var.deps.db, c.var.userId, c.var.deps.clock.now()) }))
  .get('/:companyId/statements/:id', requireUser, validParams(CompanyStatementParamSchema), async (c) => {
    const { companyId, id } = c.req.valid('param');
    return ok(c, { statement: await companyStatement(c.var.deps.db, c.var.userId, companyId, id, c.var.deps.clock.now()) });
  });

/**
 * The console's statements and tax invoices (staff or the machine token; mounted after requireAdmin):
 * list and view, record a transfer, refund a line (수정세금계산서), resend and reissue; every write audited.
 */
export const adminInvoiceRoutes = new Hono<AppEnv>()
  .get('/company-invoices', validQuery(AdminInvoicesQuerySchema), async (c) => ok(c, await staffStatements(c.var.deps.db, c.req.valid('query'), ADMIN_PAGE_SIZE, c.var.deps.clock.now())))
  .get('/company-invoices/:id', validParams(IdParamSchema), async (c) => ok(c, { statement: await statementView(c.var.deps.db, c.req.valid('param').id, c.var.deps.clock.now()) }))
  // A month's statements now (a catch-up after an outage; the monthly job does the same, once per company and month).
  .post('/company-invoices/run', validJson(StatementRunSchema), async (c) => {
    const { deps } = c.var;
    const made = await issueMonthStatements(deps.db, { dueDay: deps.config.invoices.dueDay }, c.req.valid('json').month, deps.clock.now());
    await recordAudit(deps.db, c.get('actor'), { action: 'create', entity: 'company_invoice_run', entityId: c.req.valid('json').month, before: null, after: { made } });
    await deps.runJobs([TAX_INVOICE_JOB]);
    return ok(c, { made });
  })
  .post('/company-invoices/:id/paid', validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { deps } = c.var;
    await inTransaction(deps.db, async (tx) => {
      const [before] = await tx.select().from(companyInvoices).where(eq(companyInvoices.id, id)).for('update');
      if (!before) throw notFound('청구서를 찾을 수 없습니다.');
      if (before.status === 'PAID') throw conflict('이미 납부 완료된 청구서입니다.');
      const [after] = await tx.update(companyInvoices).set({ status: 'PAID', paidAt: deps.clock.now(), updatedAt: sql`now()` }).where(eq(companyInvoices.id, id)).returning();
      await recordAudit(tx, c.get('actor'), { action: 'mark_paid', entity: 'company_invoice', entityId: id, before, after });
    });
    return ok(c, { statement: await statementView(deps.db, id, deps.clock.now()) });
  })
  .post('/company-invoice-lines/:id/credit', validParams(IdParamSchema), validJson(CreditLineSchema), async (c) => {
    const { deps } = c.var;
    const { invoice } = await creditLine(deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), deps.clock.now());
    await deps.runJobs([TAX_INVOICE_JOB]);
    return ok(c, { statement: await statementView(deps.db, invoice.id, deps.clock.now()) });
  })
  // With the operator's CARD_TAX_DOCUMENT, so the console can say why no card payment has a document (card_slip).
  .get('/tax-invoices', validQuery(AdminTaxInvoicesQuerySchema), async (c) =>
    ok(c, { ...(await staffTaxInvoices(c.var.deps.db, c.req.valid('query'), ADMIN_PAGE_SIZE)), card_document: c.var.deps.config.invoices.cardDocument }),
  )
  .post('/tax-invoices/:id/resend', validParams(IdParamSchema), async (c) => {
    const { deps } = c.var;
    return ok(c, { tax_invoice: taxInvoiceView(await resendTaxInvoice(deps.db, deps.taxInvoices, c.get('actor'), c.req.valid('param').id, deps.clock.now())) });
  })
  .post('/tax-invoices/:id/reissue', validParams(IdParamSchema), validJson(ReissueSchema), async (c) => {
    const { deps } = c.var;
    const made = await reissueTaxInvoice(deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json').reason, deps.clock.now());
    await deps.runJobs([TAX_INVOICE_JOB]);
    // A statement's document answers its statement; a card payment's (no statement) answers what was made.
    const statementId = made[0].companyInvoiceId;
    return ok(c, { statement: statementId === null ? null : await statementView(deps.db, statementId, deps.clock.now()), tax_invoices: made.map(taxInvoiceView) });
  });

/**
 * Test fixtures for end-to-end runs (TEST_FIXTURES=on, the machine token): a 후불 company run by the user with last
 * month's statement (with `credit`, one owed back to the company); a company card payment with its 전자세금계산서.
 */
export const invoiceFixtureRoutes = new Hono<AppEnv>()
  .post('/test-company-statement', requireFixtures, requireMachine, validJson(TestStatementSchema), async (c) => {
    const { deps } = c.var;
    const { user_id: userId, credit } = c.req.valid('json');
    const settings = { dueDay: deps.config.invoices.dueDay };
    const made = credit
      ? await insertTestCreditStatement(deps.db, settings, userId, deps.clock.now(), () => deps.runJobs([TAX_INVOICE_JOB]))
      : await insertTestStatement(deps.db, settings, userId, deps.clock.now());
    await deps.runJobs([TAX_INVOICE_JOB]);
    return ok(c, made, 201);
  })
  // A company card payment with its 전자세금계산서 issued (the console's 카드 결제 세금계산서).
  .post('/test-company-card-tax-invoice', requireFixtures, requireMachine, validJson(TestStatementSchema), async (c) => {
    const { deps } = c.var;
    const made = await insertTestCardTaxInvoice(deps.db, c.req.valid('json').user_id, deps.clock.now());
    await deps.runJobs([TAX_INVOICE_JOB]);
    return ok(c, made, 201);
  });
