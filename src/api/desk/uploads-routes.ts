import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { UPLOAD_MAX_BYTES, UploadNameSchema } from '../../domain/schemas/admin';
import { bodyTooLarge, notFound } from '../errors';
import { validParams, type AppEnv } from '../http';
import { readUpload } from './desk';

/** The body limit of POST /admin/uploads: a 5 MB image as base64 in JSON (the rest of the API keeps 1 MB). */
export const uploadBodyLimit = bodyLimit({
  maxSize: Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) + 64 * 1024,
  onError: () => {
    throw bodyTooLarge('이미지는 5MB 이하만 올릴 수 있습니다.', { data: ['이미지는 5MB 이하만 올릴 수 있습니다.'] });
  },
});

/** True for the upload route (its own, larger body limit). */
export const isUploadRequest = (path: string) => path.endsWith('/admin/uploads');

/** GET /uploads/{name}: images staff uploaded (DATA_DIR/uploads); names are random, so they are cached for good. */
export const uploadRoutes = new Hono<AppEnv>().get('/:name', validParams(UploadNameSchema), async (c) => {
  const file = await readUpload(c.var.deps.config.dataDir, c.req.valid('param').name);
  if (!file) throw notFound('파일을 찾을 수 없습니다.');
  return c.body(new Uint8Array(file.bytes), 200, {
    'content-type': file.type,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  });
});
