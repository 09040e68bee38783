/*
 * The photo types staff and drivers upload (the gallery, the handovers' condition photos), for the
 * API and the islands alike: plain data and functions, no zod, so an island's upload code stays small.
 */

/** Image types the console can upload, by MIME type → file extension (HEIC/HEIF: an iPhone's own photos, issue 47). */
export const UPLOAD_TYPES = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/avif': 'avif', 'image/heic': 'heic', 'image/heif': 'heif' } as const;
export type UploadType = keyof typeof UPLOAD_TYPES;
/** The formats as a refusal names them. */
export const UPLOAD_FORMATS = 'JPEG, PNG, WebP, AVIF, HEIC';
/** The refusal of a file of another type. */
export const UPLOAD_WRONG_TYPE = `${UPLOAD_FORMATS} 이미지만 올릴 수 있습니다.`;

// Browsers on Windows and Linux give a .heic file no type (''); by its extension it is the HEIC it is.
const TYPE_BY_EXTENSION: Partial<Record<string, UploadType>> = { heic: 'image/heic', heif: 'image/heif', hif: 'image/heif' };

/** What a file picker offers (`accept`): the types, and the HEIC extensions a browser may not know. */
export const UPLOAD_ACCEPT = [...Object.keys(UPLOAD_TYPES), ...Object.keys(TYPE_BY_EXTENSION).map((ext) => `.${ext}`)].join(',');

/** The type a file is uploaded as: its own, else (no type, or a generic one) by its extension; null when we do not take it. */
export function uploadTypeOf(file: { type: string; name?: string }): UploadType | null {
  const type = file.type.split(';')[0].trim().toLowerCase();
  if (Object.hasOwn(UPLOAD_TYPES, type)) return type as UploadType;
  if (type !== '' && type !== 'application/octet-stream') return null;
  return TYPE_BY_EXTENSION[(file.name ?? '').split('.').pop()?.toLowerCase() ?? ''] ?? null;
}

const HEIF_TYPES: readonly UploadType[] = ['image/heic', 'image/heif'];

/** The same format: HEIC files are labelled image/heic or image/heif (the `heic` or `mif1` brand) whichever they are. */
export const sameUploadType = (a: UploadType, b: UploadType) => a === b || (HEIF_TYPES.includes(a) && HEIF_TYPES.includes(b));
