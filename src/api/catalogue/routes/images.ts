import { Hono } from 'hono';
import { PhotoNameSchema } from '../../../domain/schemas/photos';
import { notFound } from '../../errors';
import { validParams, type AppEnv } from '../../http';
import { readPhotoVariant } from '../photos/store';

/** GET /images/{name}: encoded photo variants (the database, through DATA_DIR/images); a name is a content hash, so it is cached for good. */
export const imageRoutes = new Hono<AppEnv>().get('/:name', validParams(PhotoNameSchema), async (c) => {
  const file = await readPhotoVariant(c.var.deps.db, c.var.deps.config.dataDir, c.req.valid('param').name);
  if (!file) throw notFound('파일을 찾을 수 없습니다.');
  return c.body(new Uint8Array(file.bytes), 200, {
    'content-type': file.type,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  });
});
