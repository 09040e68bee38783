import { Hono } from 'hono';
import { AdminCompanyQuerySchema, CompanyAuthoritySchema, CompanyIdParamSchema, CompanyProofParamSchema, InvoiceBillingSchema } from '../../domain/schemas/company';
import { ok, validJson, validParams, validQuery, type AppEnv } from '../http';
import { proofFileHeaders, staffProofDocumentFile } from './proof';
import { adminCompany, adminCompanyList, decideAuthority, setInvoiceBilling, type AdminCompanyAnswer, type AdminCompanyListAnswer } from './admin';

/** /admin/companies (staff; mounted behind requireAdmin): the console's company list and detail (audited reads) the 후불 switch, the 재직/위임 proof's files (audited downloads) and the decision. */
export const adminCompanyRoutes = new Hono<AppEnv>()
  .get('/companies', validQuery(AdminCompanyQuerySchema), async (c) => ok(c, (await adminCompanyList(c.var.deps.db, c.get('actor'), c.req.valid('query'))) satisfies AdminCompanyListAnswer))
  .get('/companies/:id', validParams(CompanyIdParamSchema), async (c) => ok(c, (await adminCompany(c.var.deps.db, c.get('actor'), c.req.valid('param').id)) satisfies AdminCompanyAnswer))
  .put('/companies/:id/billing', validParams(CompanyIdParamSchema), validJson(InvoiceBillingSchema), async (c) => {
    const company = await setInvoiceBilling(c.var.deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json').invoice_billing);
    return ok(c, { company });
  })
  .put('/companies/:id/authority', validParams(CompanyIdParamSchema), validJson(CompanyAuthoritySchema), async (c) => {
    const company = await decideAuthority(c.var.deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), c.var.deps.clock.now());
    return ok(c, { company });
  })
  // A proof document the company's admin uploaded: each download is in the audit log.
  .get('/companies/:id/authority-documents/:documentId', validParams(CompanyProofParamSchema), async (c) => {
    const { id, documentId } = c.req.valid('param');
    const file = await staffProofDocumentFile(c.var.deps.db, c.get('actor'), id, documentId);
    return c.body(new Uint8Array(file.bytes), 200, proofFileHeaders(file));
  });
