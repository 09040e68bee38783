import { createHash } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import {
  PROOF_EMPTY, PROOF_MAX_BYTES, PROOF_MAX_FILES, PROOF_NOT_READABLE, PROOF_TOO_LARGE, PROOF_TOO_MANY, PROOF_WRONG_TYPE, proofMatches, proofTypeOfHeader,
  type ProofDocumentsAnswer, type ProofDocumentView, type ProofRefusalView, type ProofType,
} from '../../domain/company-proof';
import { CompanyProofNameSchema } from '../../domain/schemas/company';
import { customerActor, recordAudit } from '../audit/audit';
import type { StaffActor } from '../auth/guards';
import { inTransaction, type Db } from '../db/client';
import { companies, companyAuthorityDocuments, users } from '../db/schema';
import { badRequest, conflict, notFound, unprocessable } from '../errors';
import { readUploadBody } from '../upload-body';
import { requireRole, type CompanyRow } from './companies';

/**
 * 재직·위임 증빙 (issue 52): a PENDING company's admin uploads what staff check before the company
 * may book (위임장 with the 법인인감, or 재직증명서 with 법인인감증명서): PDF, JPEG, PNG or HEIC, at
 * most PROOF_MAX_BYTES each and PROOF_MAX_FILES at once, kept as sent in company_authority_documents
 * (bytea, like the handovers' condition photos: any replica serves them, nothing under DATA_DIR or
 * the static build). Only the company's admins and staff read them, through the API, never cached;
 * staff's reads are audited. A member without the ADMIN role is 403, anyone else the 404 of a
 * company that does not exist. docs/decisions/business-accounts.md.
 */

type DocumentRow = Omit<typeof companyAuthorityDocuments.$inferSelect, 'bytes'>;

const documentNotFound = () => notFound('서류를 찾을 수 없습니다.');
const notPending = () => conflict('재직·위임 확인을 기다리는 회사가 아닙니다. 이미 확인이 끝난 회사는 서류를 올리거나 지울 수 없습니다.');

const listed = {
  id: companyAuthorityDocuments.id, companyId: companyAuthorityDocuments.companyId, uploadedByUserId: companyAuthorityDocuments.uploadedByUserId,
  name: companyAuthorityDocuments.name, contentType: companyAuthorityDocuments.contentType, size: companyAuthorityDocuments.size,
  sha256: companyAuthorityDocuments.sha256, createdAt: companyAuthorityDocuments.createdAt,
};

const view = (d: DocumentRow, uploader: string | null): ProofDocumentView => ({
  id: d.id, name: d.name, content_type: d.contentType as ProofType, size: d.size, created_at: d.createdAt.toISOString(), uploaded_by: uploader ?? '회사 관리자',
});

/** The company's documents, oldest first, with who uploaded each. */
export async function proofDocumentList(db: Db, companyId: number): Promise<ProofDocumentView[]> {
  const rows = await db
    .select({ d: listed, name: users.name, username: users.username })
    .from(companyAuthorityDocuments)
    .innerJoin(users, eq(users.id, companyAuthorityDocuments.uploadedByUserId))
    .where(eq(companyAuthorityDocuments.companyId, companyId))
    .orderBy(asc(companyAuthorityDocuments.id));
  return rows.map((r) => view(r.d, r.name ?? r.username));
}

/** Staff's last refusal, while the company still waits (a confirmed or closed company has none to show). */
export function proofRefusalOf(company: CompanyRow): ProofRefusalView | null {
  if (company.authority !== 'PENDING' || company.closedAt || !company.authorityRefusal || !company.authorityRefusedAt) return null;
  return { reason: company.authorityRefusal, refused_at: company.authorityRefusedAt.toISOString() };
}

const answerOf = async (db: Db, company: CompanyRow): Promise<ProofDocumentsAnswer> => ({
  documents: await proofDocumentList(db, company.id),
  refusal: proofRefusalOf(company),
  open: company.authority === 'PENDING',
});

/** GET /companies/{id}/authority-documents (ADMIN): the documents, staff's last refusal, and whether they may still change. */
export async function proofDocuments(db: Db, companyId: number, userId: number): Promise<ProofDocumentsAnswer> {
  const { company } = await requireRole(db, companyId, userId, 'manage');
  return answerOf(db, company);
}

/** What POST /companies/{id}/authority-documents is sent: its Content-Type and X-File-Name as they came, and the body to read. */
interface ProofUpload {
  contentType: string | undefined;
  fileName: string | undefined;
  /** Reads the body (proofBody): called only once the checks before it passed. */
  body: () => Promise<Buffer>;
}

/** The raw body of an upload, at most PROOF_MAX_BYTES (413 with the documents' own words). */
export const proofBody = (request: Request) => readUploadBody(request, PROOF_MAX_BYTES, PROOF_TOO_LARGE);

/**
 * POST /companies/{id}/authority-documents (ADMIN of a PENDING company; the file is the raw body
 * under its own Content-Type, its name in X-File-Name). In order, so that nobody but the admin makes
 * the API hold a file: the membership and role (404, 403), the company still waiting (409), the
 * name and type (400), room for another file (422); then the body is read (413 past the limit), must
 * not be empty and must be what its type says (400). The same file again answers the stored one.
 */
export async function addProofDocument(db: Db, companyId: number, userId: number, upload: ProofUpload, now: Date): Promise<{ document: ProofDocumentView; created: boolean }> {
  const { company } = await requireRole(db, companyId, userId, 'manage');
  if (company.authority !== 'PENDING') throw notPending();
  const name = CompanyProofNameSchema.safeParse(upload.fileName);
  if (!name.success) throw badRequest(name.error.issues[0]?.message ?? '파일 이름을 보내주세요.', { name: name.error.issues.map((i) => i.message) });
  const type = proofTypeOfHeader(upload.contentType);
  if (!type) throw badRequest(PROOF_WRONG_TYPE, { file: [PROOF_WRONG_TYPE] });
  if ((await countOf(db, companyId)) >= PROOF_MAX_FILES) throw unprocessable(PROOF_TOO_MANY, { file: [PROOF_TOO_MANY] });
  const bytes = await upload.body();
  if (bytes.byteLength === 0) throw badRequest(PROOF_EMPTY, { file: [PROOF_EMPTY] });
  if (!proofMatches(type, bytes)) throw badRequest(PROOF_NOT_READABLE, { file: [PROOF_NOT_READABLE] });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const actor = await customerActor(db, userId);
  const made = await inTransaction(db, async (tx) => {
    const { company: locked } = await requireRole(tx, companyId, userId, 'manage', { lock: true });
    if (locked.authority !== 'PENDING') throw notPending();
    const [same] = await tx.select(listed).from(companyAuthorityDocuments).where(and(eq(companyAuthorityDocuments.companyId, companyId), eq(companyAuthorityDocuments.sha256, sha256)));
    if (same) return { id: same.id, created: false };
    if ((await countOf(tx, companyId)) >= PROOF_MAX_FILES) throw unprocessable(PROOF_TOO_MANY, { file: [PROOF_TOO_MANY] });
    const [row] = await tx
      .insert(companyAuthorityDocuments)
      .values({ companyId, uploadedByUserId: userId, name: name.data, contentType: type, size: bytes.byteLength, sha256, bytes, createdAt: now })
      .returning(listed);
    await recordAudit(tx, actor, { action: 'create', entity: 'company_authority_document', entityId: row.id, before: null, after: { company_id: companyId, name: row.name, content_type: type, size: row.size, sha256 } });
    return { id: row.id, created: true };
  });
  const document = (await proofDocumentList(db, companyId)).find((d) => d.id === made.id);
  if (!document) throw documentNotFound();
  return { document, created: made.created };
}

const countOf = async (db: Db, companyId: number) =>
  Number((await db.select({ n: count() }).from(companyAuthorityDocuments).where(eq(companyAuthorityDocuments.companyId, companyId)))[0]?.n ?? 0);

/** DELETE /companies/{id}/authority-documents/{documentId} (ADMIN, while PENDING): the file is gone; the audit keeps its name and hash. */
export async function removeProofDocument(db: Db, companyId: number, userId: number, documentId: number): Promise<ProofDocumentsAnswer> {
  const actor = await customerActor(db, userId);
  return inTransaction(db, async (tx) => {
    const { company } = await requireRole(tx, companyId, userId, 'manage', { lock: true });
    const [doc] = await tx.select(listed).from(companyAuthorityDocuments).where(and(eq(companyAuthorityDocuments.id, documentId), eq(companyAuthorityDocuments.companyId, companyId)));
    if (!doc) throw documentNotFound();
    if (company.authority !== 'PENDING') throw notPending();
    await tx.delete(companyAuthorityDocuments).where(eq(companyAuthorityDocuments.id, documentId));
    await recordAudit(tx, actor, { action: 'delete', entity: 'company_authority_document', entityId: documentId, before: { company_id: companyId, name: doc.name, size: doc.size, sha256: doc.sha256 }, after: null });
    return answerOf(tx, company);
  });
}

/** A document's bytes as a download answers them. */
interface ProofFile {
  bytes: Buffer;
  contentType: string;
  name: string;
  etag: string;
}

async function fileOf(db: Db, companyId: number, documentId: number): Promise<ProofFile & { sha256: string; size: number }> {
  const [d] = await db
    .select({ bytes: companyAuthorityDocuments.bytes, contentType: companyAuthorityDocuments.contentType, name: companyAuthorityDocuments.name, sha256: companyAuthorityDocuments.sha256, size: companyAuthorityDocuments.size })
    .from(companyAuthorityDocuments)
    .where(and(eq(companyAuthorityDocuments.id, documentId), eq(companyAuthorityDocuments.companyId, companyId)));
  if (!d) throw documentNotFound();
  return { ...d, etag: `"${d.sha256}"` };
}

/** GET /companies/{id}/authority-documents/{documentId} (ADMIN): their own company's file, to check what they sent. */
export async function proofDocumentFile(db: Db, companyId: number, userId: number, documentId: number): Promise<ProofFile> {
  await requireRole(db, companyId, userId, 'manage');
  return fileOf(db, companyId, documentId);
}

/** GET /admin/companies/{id}/authority-documents/{documentId}: staff's download, each one in the audit log (who read which file, when). */
export async function staffProofDocumentFile(db: Db, actor: StaffActor, companyId: number, documentId: number): Promise<ProofFile> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound('회사를 찾을 수 없습니다.');
  const file = await fileOf(db, companyId, documentId);
  await recordAudit(db, actor, { action: 'read', entity: 'company_authority_document', entityId: documentId, before: null, after: { company_id: companyId, name: file.name, size: file.size, sha256: file.sha256 } });
  return file;
}

/** The headers of a document's download: a file to save (never shown inline from the API's origin), private, never stored by a cache. */
export function proofFileHeaders(file: ProofFile): Record<string, string> {
  const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'cache-control': 'private, no-store',
    etag: file.etag,
    vary: 'Authorization',
    'x-content-type-options': 'nosniff',
  };
}
