import { Hono } from 'hono';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ContactSchema } from '../../domain/schemas/services';
import { ok, parseJson, parseParams, type AppEnv } from '../http';
import { faqById, faqList, policyById, policyList, saveContactMessage } from '../services/content';

/** FAQs, policy documents and the contact form. */
export const servicesRoutes = new Hono<AppEnv>()
  .get('/faqs', async (c) => ok(c, { faqs: await faqList(c.var.deps.db) }))
  .get('/faqs/:id', async (c) => ok(c, { faq: await faqById(c.var.deps.db, parseParams(c, IdParamSchema).id) }))
  .get('/terms', async (c) => ok(c, { terms: await policyList(c.var.deps.db, 'terms') }))
  .get('/terms/:id', async (c) => ok(c, { term: await policyById(c.var.deps.db, 'terms', parseParams(c, IdParamSchema).id) }))
  .get('/privacy-policies', async (c) => ok(c, { privacy_policies: await policyList(c.var.deps.db, 'privacy') }))
  .get('/privacy-policies/:id', async (c) =>
    ok(c, { privacy_policy: await policyById(c.var.deps.db, 'privacy', parseParams(c, IdParamSchema).id) }),
  )
  .post('/contacts', async (c) => {
    const input = await parseJson(c, ContactSchema);
    const saved = await saveContactMessage(c.var.deps.db, input);
    return ok(c, { id: saved.id, message: '문의가 접수되었습니다.' }, 201);
  });
