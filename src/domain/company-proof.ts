/**
 * 재직·위임 증빙 (issue 52): the documents a PENDING company's admin uploads for staff to check
 * that they may act for the company. Plain data and functions, shared by the API (its limits and
 * refusals) and /my/company (the picker says the same). docs/decisions/business-accounts.md.
 */

/** What staff accept, as the page says it. */
export const PROOF_DOCUMENTS_LINE = '대표자의 위임장(법인인감 날인) 1부, 또는 재직증명서와 법인인감증명서를 함께 올려주세요.';

/** The document types taken, by MIME type → file extension (HEIC/HEIF: a phone's photo of the paper). */
const PROOF_TYPES = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/heic': 'heic', 'image/heif': 'heif' } as const;
export type ProofType = keyof typeof PROOF_TYPES;

/** At most this many bytes per file, and this many files at once. */
export const PROOF_MAX_BYTES = 10 * 1024 * 1024;
export const PROOF_MAX_FILES = 3;

export const PROOF_WRONG_TYPE = 'PDF, JPEG, PNG, HEIC 파일만 올릴 수 있습니다.';
export const PROOF_TOO_LARGE = '서류 파일은 한 개에 10MB까지 올릴 수 있습니다. 더 작은 파일로 올려주세요.';
export const PROOF_TOO_MANY = `서류는 ${PROOF_MAX_FILES}개까지 올릴 수 있습니다. 필요 없는 파일을 지운 뒤 다시 올려주세요.`;
export const PROOF_EMPTY = '올릴 파일을 선택해주세요.';
/** The bytes are not the type the file says it is (a renamed file, or a broken one). */
export const PROOF_NOT_READABLE = `파일 내용을 확인할 수 없습니다. ${PROOF_WRONG_TYPE}`;

// A browser may give a .heic (and sometimes a .pdf) no type; by its extension it is what it is.
const TYPE_BY_EXTENSION: Partial<Record<string, ProofType>> = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', heic: 'image/heic', heif: 'image/heif', hif: 'image/heif' };

/** What the file picker offers (`accept`). */
export const PROOF_ACCEPT = [...Object.keys(PROOF_TYPES), ...Object.keys(TYPE_BY_EXTENSION).map((ext) => `.${ext}`)].join(',');

/** A Content-Type as the API reads it: one of PROOF_TYPES, or null. */
export function proofTypeOfHeader(contentType: string | undefined): ProofType | null {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return Object.hasOwn(PROOF_TYPES, mime) ? (mime as ProofType) : null;
}

/** The type a chosen file is sent as: its own, else (no type, or a generic one) by its extension; null when we do not take it. */
export function proofTypeOf(file: { type: string; name?: string }): ProofType | null {
  const own = proofTypeOfHeader(file.type);
  if (own) return own;
  const type = file.type.split(';')[0].trim().toLowerCase();
  if (type !== '' && type !== 'application/octet-stream') return null;
  return TYPE_BY_EXTENSION[(file.name ?? '').split('.').pop()?.toLowerCase() ?? ''] ?? null;
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * The type the bytes themselves are (their signature), or null: %PDF- (within the first KB, as
 * readers allow), JPEG's FF D8 FF, PNG's eight bytes, an ISO-BMFF `ftyp` box of a HEIF brand.
 */
export function sniffProofType(bytes: Uint8Array): ProofType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(bytes, 8, 12))) return 'image/heic';
  if (ascii(bytes, 0, Math.min(bytes.length, 1024)).includes('%PDF-')) return 'application/pdf';
  return null;
}

/** Whether the bytes are the type the upload declared (HEIC and HEIF are one format under two names). */
export function proofMatches(declared: ProofType, bytes: Uint8Array): boolean {
  const found = sniffProofType(bytes);
  if (!found) return false;
  const heif = (t: ProofType) => t === 'image/heic' || t === 'image/heif';
  return found === declared || (heif(found) && heif(declared));
}

/** A file name as it is kept and shown: its last path part, control characters out, at most 120 characters (its extension kept). */
export function proofFileName(raw: string): string {
  const base = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const clean = [...base].filter((ch) => ch.charCodeAt(0) > 0x1f && ch !== '\u007f').join('').trim();
  if (clean.length <= 120) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
  return clean.slice(0, 120 - ext.length) + ext;
}

/** A size as the list shows it: 512 B, 34 KB, 2.4 MB. */
export function proofSizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// ── API shapes ──────────────────────────────────────────────────────────────

/** One uploaded document (never its bytes: GET …/authority-documents/{id} answers those). */
export interface ProofDocumentView {
  id: number;
  name: string;
  content_type: ProofType;
  size: number;
  created_at: string;
  /** Who uploaded it (a member's name). */
  uploaded_by: string;
}

/** Staff's last refusal of the documents (the company stays PENDING; the admin may upload again). */
export interface ProofRefusalView {
  reason: string;
  refused_at: string;
}

/** GET /companies/{id}/authority-documents (ADMIN): the documents, the last refusal, and whether they can still change. */
export interface ProofDocumentsAnswer {
  documents: ProofDocumentView[];
  refusal: ProofRefusalView | null;
  /** PENDING only: documents may be added and removed. */
  open: boolean;
}
