import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE, UploadNameSchema } from '../../domain/schemas/admin';
import { notFound, payloadTooLarge } from '../errors';
import { validParams, type AppEnv } from '../http';
import { readUpload } from './desk';
import { rawUploadType, readUploadBody } from '../upload-body';

/** Room for a multipart body's boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = () => payloadTooLarge(UPLOAD_TOO_LARGE, { file: [UPLOAD_TOO_LARGE] });

// The raw-body reading is shared infrastructure (handover photos read it too): ../upload-body.ts.
export { rawUploadType, readUploadBody };

/**
 * The body limit of POST /admin/uploads, by what it carries. A photo as the raw body or as
 * multipart passes on to the route, which counts it after the staff check (readUploadBody,
 * multipartBodyLimit): nobody else can make the API hold 25 MB. JSON (base64, small images only)
 * and anything else get the API's own limit (`json`), so no photo is ever held as base64 text.
 */
export function uploadBodyLimit(json: MiddlewareHandler): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const type = c.req.header('content-type');
    return rawUploadType(type) || isMultipart(type) ? next() : json(c, next);
  };
}

const isMultipart = (type: string | undefined) => /^multipart\/form-data/i.test(type ?? '');

/** The photo limit plus its framing, on a multipart upload only (the route's, after the staff check). */
const multipartLimit = bodyLimit({ maxSize: UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD, onError: () => { throw tooLarge(); } });
export const multipartBodyLimit: MiddlewareHandler<AppEnv> = (c, next) => (isMultipart(c.req.header('content-type')) ? multipartLimit(c, next) : next());

/** True for the upload routes (their own, larger body limit): /admin/uploads and the handovers' condition photos. */
export const isUploadRequest = (path: string) => path.endsWith('/admin/uploads') || /\/(admin|driver)\/handovers\/\d+\/photos$/.test(path);

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
