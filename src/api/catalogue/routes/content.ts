import { Hono } from 'hono';
import type { FaqListAnswer, PrivacyPolicyListAnswer, TermsAnswer } from '../../../domain/catalogue';
import { IdParamSchema } from '../../../domain/schemas/catalogue';
import { ContactSchema } from '../../../domain/schemas/services';
import { ok, validJson, validParams, type AppEnv } from '../../http';
import { limitIp } from '../../middleware/rate-limit';
import { faqById, faqList, policyById, policyList, saveContactMessage } from '../content';

/** Contact messages stored per client IP (clientIp) in 10 minutes; more is the Korean 429. Bad input is refused without counting. */
export const CONTACT_LIMIT = { max: 5, windowMs: 10 * 60_000 } as const;

/** FAQs, policy documents and the contact form. */
export const servicesRoutes = new Hono<AppEnv>()
  .get('/faqs', async (c) => ok(c, { faqs: await faqList(c.var.deps.db) } satisfies FaqListAnswer))
  .get('/faqs/:id', validParams(IdParamSchema), async (c) => ok(c, { faq: await faqById(c.var.deps.db, c.req.valid('param').id) }))
  .get('/terms', async (c) => ok(c, { terms: await policyList(c.var.deps.db, 'terms') } satisfies TermsAnswer))
  .get('/terms/:id', validParams(IdParamSchema), async (c) => ok(c, { term: await policyById(c.var.deps.db, 'terms', c.req.valid('param').id) }))
  .get('/privacy-policies', async (c) => ok(c, { privacy_policies: await policyList(c.var.deps.db, 'privacy') } satisfies PrivacyPolicyListAnswer))
  .get('/privacy-policies/:id', validParams(IdParamSchema), async (c) =>
    ok(c, { privacy_policy: await policyById(c.var.deps.db, 'privacy', c.req.valid('param').id) }),
  )
  .post('/contacts', validJson(ContactSchema), async (c) => {
    await limitIp(c, 'contact', CONTACT_LIMIT.max, CONTACT_LIMIT.windowMs);
    const saved = await saveContactMessage(c.var.deps.db, c.req.valid('json'));
    return ok(c, { id: saved.id, message: '문의가 접수되었습니다.' }, 201);
  });
