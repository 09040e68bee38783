import { UPLOAD_TOO_LARGE, UPLOAD_TYPES, type UploadType } from '../domain/schemas/admin';
import { payloadTooLarge } from './errors';

const tooLarge = (message: string) => payloadTooLarge(message, { file: [message] });

/** The content type of a photo sent as the raw body (image/jpeg … image/heic), or null. */
export function rawUploadType(contentType: string | undefined): UploadType | null {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return Object.hasOwn(UPLOAD_TYPES, mime) ? (mime as UploadType) : null;
}

/**
 * The raw body of an upload, at most `maxBytes`: refused at once when its Content-Length says
 * more, else counted chunk by chunk as it arrives and refused (the rest never read) as soon as it
 * passes the limit. With a Content-Length the bytes go straight into one buffer of that size;
 * without one (chunked) the chunks are joined once, at the end. `refusal` is the 413's words (a
 * photo's by default).
 */
export async function readUploadBody(request: Request, maxBytes: number, refusal: string = UPLOAD_TOO_LARGE): Promise<Buffer> {
  const header = request.headers.get('content-length');
  const declared = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  if (declared !== null && declared > maxBytes) throw tooLarge(refusal);
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
      throw tooLarge(refusal);
    }
    if (into) into.set(value, size);
    else chunks.push(value);
    size += value.byteLength;
  }
  return into ? into.subarray(0, size) : Buffer.concat(chunks, size);
}


/**
 * True for POST /companies/{id}/authority-documents: its body is a document of up to 10 MB (a PDF
 * too, which the photo routes' limit does not know), read by the route itself after the admin
 * check (readUploadBody with the documents' limit), so it skips the API's 1 MB limit.
 */
export const isDocumentUploadRequest = (path: string) => /\/companies\/\d+\/authority-documents$/.test(path);
