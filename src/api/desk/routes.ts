import { Hono } from 'hono';
import { z } from 'zod';
import type { DeskButlerRequest, DeskPage, DeskSubscriptionRequest, PublishStatusView, UploadAnswer } from '../../domain/console';
import type { SubscriptionCancelAnswer } from '../../domain/subscriptions';
import { AdminOrderQuerySchema, AdminUploadSchema, UPLOAD_FORMATS, UPLOAD_JSON_MAX_BYTES, UPLOAD_MAX_BYTES, uploadTypeOf } from '../../domain/schemas/admin';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { createMiddleware } from 'hono/factory';
import { badRequest, notFound } from '../errors';
import { ok, reservationWrites, validJson, validParams, validQuery, type AppEnv } from '../http';
import { requireFixtures, requireMachine, requireStaff } from '../auth/guards';
import { deskButlerRequests, deskSubscriptionRequests, storeUpload, subscriptionRequestOwner } from './desk';
import { publishStatus } from '../catalogue/publish-builds';
import { setStaffRole } from '../accounts/staff';
import { cancelRequest } from '../orders/subscription-request-cancel';
import { auditedCall, recordAudit } from '../audit/audit';
import { multipartBodyLimit, rawUploadType, readUploadBody } from './uploads-routes';

/**
 * POST /admin/uploads with the photo as the raw body (Content-Type image/jpeg, png, webp, avif,
 * heic or heif), what the console sends: read as it streams in, refused with a 413 past UPLOAD_MAX_BYTES.
 */
const rawUpload = createMiddleware<AppEnv>(async (c, next) => {
  const type = rawUploadType(c.req.header('content-type'));
  if (!type) return next();
  const bytes = await readUploadBody(c.req.raw, UPLOAD_MAX_BYTES);
  const upload = await storeUpload(c.var.deps.db, c.var.deps.config.dataDir, type, bytes, UPLOAD_MAX_BYTES);
  return ok(c, upload satisfies UploadAnswer, 201);
});

/** POST /admin/uploads as multipart/form-data: the `file` field, its type checked like the JSON form, or by its name when it has none (held to the photo limit by multipartBodyLimit before it). */
const multipartUpload = createMiddleware<AppEnv>(async (c, next) => {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) return next();
  const form = await c.req.parseBody().catch(() => null);
  const file = form?.file;
  if (!(file instanceof File)) throw badRequest('이미지 파일을 선택해주세요.', { file: ['이미지 파일을 선택해주세요.'] });
  const type = uploadTypeOf(file);
  if (!type) throw badRequest(`이미지는 ${UPLOAD_FORMATS}만 올릴 수 있습니다.`, { file: [`이미지는 ${UPLOAD_FORMATS}만 올릴 수 있습니다.`] });
  const upload = await storeUpload(c.var.deps.db, c.var.deps.config.dataDir, type, Buffer.from(await file.arrayBuffer()), UPLOAD_MAX_BYTES);
  return ok(c, upload satisfies UploadAnswer, 201);
});

const TestStaffSchema = z.object({ email: z.email({ error: '이메일 형식이 올바르지 않습니다.' }).max(254) });

/**
 * The console's order desk (lists of subscription and butler requests; confirm and cancel
 * are in admin-orders.ts and admin-butler.ts, plus the staff cancel of a subscription
 * request here), publishing and image uploads. app.ts mounts it behind requireAdmin.
 */
export const adminDeskRoutes = new Hono<AppEnv>()
  .get('/subscription-requests', validQuery(AdminOrderQuerySchema), async (c) => ok(c, (await deskSubscriptionRequests(c.var.deps.db, c.req.valid('query'))) satisfies DeskPage<DeskSubscriptionRequest>))
  .get('/butler-requests', validQuery(AdminOrderQuerySchema), async (c) => ok(c, (await deskButlerRequests(c.var.deps.db, c.req.valid('query'))) satisfies DeskPage<DeskButlerRequest>))
  .use('/subscription-requests/*', reservationWrites)
  .post('/subscription-requests/:id/cancel', validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { db } = c.var.deps;
    const owner = await subscriptionRequestOwner(db, id);
    const actor = c.get('actor');
    const cancelled = await auditedCall(db, actor, { action: 'cancel', entity: 'subscription_request', entityId: id }, (audit) => cancelRequest(c.var.deps, owner, id, { actor: `staff:${actor.name}`, audit }));
    return ok(c, cancelled satisfies SubscriptionCancelAnswer);
  })
  .use('/butler-requests/*', reservationWrites)
  .get('/publish', async (c) => ok(c, (await publishStatus(c.var.deps.db)) satisfies PublishStatusView))
  .post('/publish', requireStaff, async (c) => {
    c.var.deps.requestPublish('publish');
    await recordAudit(c.var.deps.db, c.get('actor'), { action: 'publish', entity: 'site', entityId: null, before: null, after: { trigger: 'publish' } });
    return ok(c, (await publishStatus(c.var.deps.db)) satisfies PublishStatusView, 202);
  })
  .post('/webhooks/publish', requireMachine, async (c) => {
    c.var.deps.requestPublish('webhook');
    return ok(c, (await publishStatus(c.var.deps.db)) satisfies PublishStatusView, 202);
  })
  // Test fixture for end-to-end runs (machine token, TEST_FIXTURES=on only): makes an existing account staff.
  .post('/test-staff', requireFixtures, requireMachine, validJson(TestStaffSchema), async (c) => {
    const member = await setStaffRole(c.var.deps.db, c.req.valid('json').email, true);
    if (!member) throw notFound('계정을 찾을 수 없습니다.');
    return ok(c, { staff: member });
  })
  // A photo as the raw body (up to 25 MB), as multipart/form-data (field `file`, the same limit) or,
  // a small image only (the API's 1 MB body limit), as base64 JSON ({ content_type, data }).
  .post('/uploads', rawUpload, multipartBodyLimit, multipartUpload, validJson(AdminUploadSchema), async (c) => {
    const { content_type, data } = c.req.valid('json');
    const upload = await storeUpload(c.var.deps.db, c.var.deps.config.dataDir, content_type, Buffer.from(data, 'base64'), UPLOAD_JSON_MAX_BYTES);
    return ok(c, upload satisfies UploadAnswer, 201);
  });
