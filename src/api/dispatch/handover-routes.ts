import { Hono, type Context } from 'hono';
import type { AdminHandoversAnswer, HandoverAnswer, HandoverListAnswer, HandoverPhotoAnswer, HandoverPhotosAnswer, HandoverRecordAnswer, SwapHandoversAnswer } from '../../domain/handover';
import { UPLOAD_MAX_BYTES, UPLOAD_WRONG_TYPE } from '../../domain/schemas/admin';
import { badRequest } from '../errors';
import { rawUploadType, readUploadBody } from '../upload-body';
import { addHandoverPhoto, handoverPhotoBytes, handoverPhotoList } from './handover-photos';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { AcknowledgeHandoverSchema, HandoverPhotoParamSchema, HandoverBoardQuerySchema, HandoverRecordSchema, ScheduleHandoverSchema, ScheduleSwapHandoversSchema, SwapParamSchema, TestSwapSchema } from '../../domain/schemas/handover';
import { ok, validJson, validParams, validQuery, type AppEnv } from '../http';
import { requireAdmin, requireFixtures, requireUser } from '../auth/guards';
import { cancelHandover, scheduleHandover } from './handover-schedule';
import { cancelSwapHandovers, scheduleSwapHandovers } from './swap-handovers';
import { acknowledgeHandover, customerHandovers } from './customer-handovers';
import { handoverBoard } from './handover-board';
import { recordHandover } from './handover-record';
import { insertTestSwap } from './test-swap-fixture';

/**
 * 탁송·반납 (issue 39). Staff (staff or ADMIN_TOKEN; every write audited): the handovers of the
 * dispatch board's days and the subscriptions still missing one, scheduling, calling off and
 * recording. The customer: their own handovers and the acknowledgement of a record.
 */

/**
 * A condition photo sent as the raw body (Content-Type image/jpeg, png, webp, avif, heic or heif, like POST
 * /admin/uploads): read as it streams in, after the route's auth, refused with a 413 past
 * UPLOAD_MAX_BYTES; any other type is a 400.
 */
export async function photoBody(c: Context<AppEnv>): Promise<Buffer> {
  if (!rawUploadType(c.req.header('content-type'))) throw badRequest(`사진은 ${UPLOAD_WRONG_TYPE}`, { file: ['이미지 파일만 올릴 수 있습니다.'] });
  return readUploadBody(c.req.raw, UPLOAD_MAX_BYTES);
}

export const adminHandoverRoutes = new Hono<AppEnv>()
  .get('/handovers', requireAdmin, validQuery(HandoverBoardQuerySchema), async (c) => {
    const { handovers, open, open_swaps } = await handoverBoard(c.var.deps.db, c.req.valid('query'), c.var.deps.clock.now());
    return ok(c, { handovers, open, open_swaps } satisfies AdminHandoversAnswer);
  })
  // 차량 교체: the pair (the old car's return, the new car's delivery), one driver and one window on the swap day.
  .post('/subscriptions/:id/swaps/:swapId/handovers', requireAdmin, validParams(SwapParamSchema), validJson(ScheduleSwapHandoversSchema), async (c) => {
    const { deps } = c.var;
    const { id, swapId } = c.req.valid('param');
    const { handovers, created } = await scheduleSwapHandovers(deps.db, c.get('actor'), id, swapId, c.req.valid('json'), deps.config.dispatch.bufferMinutes, deps.clock.now());
    return ok(c, { handovers } satisfies SwapHandoversAnswer, created ? 201 : 200);
  })
  // TEST_FIXTURES only (end-to-end tests): a CONFIRMED swap as the customer side's API leaves it.
  .post('/test-swap', requireFixtures, requireAdmin, validJson(TestSwapSchema), async (c) => ok(c, { swap: await insertTestSwap(c.var.deps.db, c.req.valid('json')) }, 201))
  .delete('/subscriptions/:id/swaps/:swapId/handovers', requireAdmin, validParams(SwapParamSchema), async (c) => {
    const { id, swapId } = c.req.valid('param');
    return ok(c, { handovers: await cancelSwapHandovers(c.var.deps.db, c.get('actor'), id, swapId, c.var.deps.clock.now()) } satisfies SwapHandoversAnswer);
  })
  .post('/subscriptions/:id/handovers', requireAdmin, validParams(IdParamSchema), validJson(ScheduleHandoverSchema), async (c) => {
    const { deps } = c.var;
    const { handover, created } = await scheduleHandover(deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), deps.config.dispatch.bufferMinutes, deps.clock.now());
    return ok(c, { handover } satisfies HandoverAnswer, created ? 201 : 200);
  })
  .post('/handovers/:id/record', requireAdmin, validParams(IdParamSchema), validJson(HandoverRecordSchema), async (c) =>
    ok(c, (await recordHandover(c.var.deps, c.get('actor'), c.req.valid('param').id, c.req.valid('json'))) satisfies HandoverRecordAnswer),
  )
  // 상태 사진 (condition photos): upload as the raw body, list (the bytes come from GET /handovers/{id}/photos/{photoId}).
  .post('/handovers/:id/photos', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { deps } = c.var;
    const { photo, created } = await addHandoverPhoto(deps.db, c.get('actor'), c.req.valid('param').id, () => photoBody(c), deps.clock.now());
    return ok(c, { photo } satisfies HandoverPhotoAnswer, created ? 201 : 200);
  })
  .get('/handovers/:id/photos', requireAdmin, validParams(IdParamSchema), async (c) =>
    ok(c, { photos: await handoverPhotoList(c.var.deps.db, 'staff', c.req.valid('param').id) } satisfies HandoverPhotosAnswer),
  )
  .delete('/handovers/:id', requireAdmin, validParams(IdParamSchema), async (c) =>
    ok(c, { handover: await cancelHandover(c.var.deps.db, c.get('actor'), c.req.valid('param').id, c.var.deps.clock.now()) } satisfies HandoverAnswer),
  );

export const handoverRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, { handovers: await customerHandovers(c.var.deps.db, c.var.userId) } satisfies HandoverListAnswer))
  .post('/:id/acknowledge', requireUser, validParams(IdParamSchema), validJson(AcknowledgeHandoverSchema), async (c) =>
    ok(c, { handover: await acknowledgeHandover(c.var.deps.db, c.var.userId, c.req.valid('param').id, c.req.valid('json').name, c.var.deps.clock.now()) } satisfies HandoverAnswer),
  )
  // 상태 사진: the subscription's customer, staff accounts and the assigned driver (anyone else 404).
  .get('/:id/photos', requireUser, validParams(IdParamSchema), async (c) =>
    ok(c, { photos: await handoverPhotoList(c.var.deps.db, { userId: c.var.userId }, c.req.valid('param').id) } satisfies HandoverPhotosAnswer),
  )
  // The image itself: private to those viewers, so never kept by a shared cache (nor the browser's); the ETag is its SHA-256.
  .get('/:id/photos/:photoId', requireUser, validParams(HandoverPhotoParamSchema), async (c) => {
    const { id, photoId } = c.req.valid('param');
    const photo = await handoverPhotoBytes(c.var.deps.db, c.var.userId, id, photoId);
    const headers = { 'cache-control': 'private, no-store', etag: photo.etag, 'x-content-type-options': 'nosniff', vary: 'Authorization' };
    if (c.req.header('if-none-match')?.split(',').some((t) => t.trim() === photo.etag)) return c.body(null, 304, headers);
    return c.body(new Uint8Array(photo.bytes), 200, { ...headers, 'content-type': photo.contentType });
  });
