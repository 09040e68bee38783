import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE, UPLOAD_TYPES, UploadNameSchema, type UploadType } from '../../domain/schemas/admin';
import { notFound, payloadTooLarge } from '../errors';
import { validParams, type AppEnv } from '../http';
import { readUpload } from './desk';

/** Room for a multipart body's boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = () => payloadTooLarge(UPLOAD_TOO_LARGE, { file: [UPLOAD_TOO_LARGE] });

/** The content type of a photo sent as the raw body (image/jpeg …), or null. */
export function rawUploadType(contentType: string | undefined): UploadType | null {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return Object.hasOwn(UPLOAD_TYPES, mime) ? (mime as UploadType) : null;
}

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

/**
 * The raw body of an upload, at most `maxBytes`: refused at once when its Content-Length says
 * more, else counted chunk by chunk as it arrives and refused (the rest never read) as soon as it
 * passes the limit. With a Content-Length the bytes go straight into one buffer of that size;
 * without one (chunked) the chunks are joined once, at the end.
 */
export async function readUploadBody(request: Request, maxBytes: number): Promise<Buffer> {
  const header = request.headers.get('content-length');
  const declared = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  if (declared !== null && declared > maxBytes) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const into = declared !== null ? Buffer.allocUnsafe(declared) : null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > (into ? into.length : maxBytes)) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (into) into.set(value, size);
    else chunks.push(value);
    size += value.byteLength;
  }
  return into ? into.subarray(0, size) : Buffer.concat(chunks, size);
}

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
