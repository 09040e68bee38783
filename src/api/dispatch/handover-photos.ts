import { createHash } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import { HANDOVER_PHOTO_MAX_SIDE, photoRefusal, type HandoverPhotoView } from '../../domain/handover';
import { inTransaction, type Db } from '../db/client';
import { handoverPhotos, subscriptionHandovers, subscriptions, users } from '../db/schema';
import { ApiError, badRequest, conflict, forbidden, notFound, payloadTooLarge } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { encodePrivatePhoto, PhotoRejected } from '../catalogue/photos/pipeline';

/**
 * 상태 사진 (issue 39): condition photos of a delivery or return record. Staff and the handover's
 * driver upload them (re-encoded to one WebP, metadata dropped, kept in handover_photos as bytea);
 * the subscription's customer, staff and the assigned driver read them through the API only
 * (private, no-store), never from the CDN or the static build. docs/decisions/handover.md.
 */

type PhotoRow = Omit<typeof handoverPhotos.$inferSelect, 'bytes'>;

const handoverNotFound = () => notFound('탁송·반납 일정을 찾을 수 없습니다.');
const photoNotFound = () => notFound('사진을 찾을 수 없습니다.');

const view = (p: PhotoRow): HandoverPhotoView => ({
  id: p.id,
  handover_id: p.handoverId,
  width: p.width,
  height: p.height,
  content_type: p.contentType,
  url: `/handovers/${p.handoverId}/photos/${p.id}`,
  created_at: p.createdAt.toISOString(),
});

const listed = {
  id: handoverPhotos.id, handoverId: handoverPhotos.handoverId, subscriptionId: handoverPhotos.subscriptionId, uploadedBy: handoverPhotos.uploadedBy,
  contentType: handoverPhotos.contentType, width: handoverPhotos.width, height: handoverPhotos.height, sha256: handoverPhotos.sha256, createdAt: handoverPhotos.createdAt,
};

/** A rejected upload as the API answers it: a picture over the pixel limit is a 413, anything else not a usable image a 400. */
function refusal(error: PhotoRejected): ApiError {
  if (error.reason === 'too-large') return payloadTooLarge(error.message, { file: [error.message] });
  return badRequest(error.message, { file: [error.message] });
}

/**
 * POST /admin/handovers/{id}/photos and /driver/handovers/{id}/photos (the raw image as the body):
 * encodes it first (outside the transaction, one at a time), then, with the handover locked, checks
 * it still takes photos (photoRefusal: 409) and stores it (audited). The same image sent again
 * answers the stored one (201 only for a new one). From /driver (`opts.driverId`), only the
 * handover's own driver (403 for another). `body` reads the upload, after those checks.
 */
export async function addHandoverPhoto(db: Db, actor: StaffActor, id: number, body: () => Promise<Buffer>, now: Date, opts: { driverId?: number } = {}): Promise<{ photo: HandoverPhotoView; created: boolean }> {
  const [first] = await db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.id, id));
  if (!first) throw handoverNotFound();
  if (opts.driverId !== undefined && first.driverId !== opts.driverId) throw forbidden('배정된 기사만 사진을 올릴 수 있는 일정입니다.');
  // The body is read only now: an unknown handover or another driver never makes the API hold a photo.
  const bytes = await body();
  if (bytes.byteLength === 0) throw badRequest('이미지 파일을 선택해주세요.', { file: ['이미지 파일을 선택해주세요.'] });
  const encoded = await encodePrivatePhoto(bytes, HANDOVER_PHOTO_MAX_SIDE).catch((e: unknown) => {
    throw e instanceof PhotoRejected ? refusal(e) : e;
  });
  const sha256 = createHash('sha256').update(encoded.bytes).digest('hex');
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.id, id)).for('update');
    if (!row) throw handoverNotFound();
    const [same] = await tx.select(listed).from(handoverPhotos).where(and(eq(handoverPhotos.handoverId, id), eq(handoverPhotos.sha256, sha256)));
    if (same) return { photo: view(same), created: false };
    const [{ n }] = await tx.select({ n: count() }).from(handoverPhotos).where(eq(handoverPhotos.handoverId, id));
    const refused = photoRefusal({ status: row.status, acknowledged: row.acknowledgedAt !== null }, n);
    if (refused) throw conflict(refused);
    const [photo] = await tx
      .insert(handoverPhotos)
      .values({
        handoverId: id, subscriptionId: row.subscriptionId, uploadedBy: actor.name.slice(0, 254), contentType: encoded.contentType,
        width: encoded.width, height: encoded.height, sha256, bytes: encoded.bytes, createdAt: now,
      })
      .returning(listed);
    await recordAudit(tx, actor, {
      action: 'create', entity: 'handover_photo', entityId: photo.id, before: null,
      after: { handover_id: id, subscription_id: row.subscriptionId, width: photo.width, height: photo.height, sha256, bytes: encoded.bytes.byteLength },
    });
    return { photo: view(photo), created: true };
  });
}

/**
 * Who may see a handover's photos: staff accounts, the handover's assigned driver, the
 * subscription's customer. Anyone else (another customer, another driver) gets the 404 of a
 * handover that does not exist, as does a cancelled handover for the customer.
 */
async function requireViewer(db: Db, userId: number, id: number): Promise<void> {
  const [found] = await db
    .select({ driverId: subscriptionHandovers.driverId, status: subscriptionHandovers.status, owner: subscriptions.userId })
    .from(subscriptionHandovers)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionHandovers.subscriptionId))
    .where(eq(subscriptionHandovers.id, id));
  if (!found) throw handoverNotFound();
  const [user] = await db.select({ role: users.role, driverId: users.driverId }).from(users).where(eq(users.id, userId));
  if (user?.role === 'staff') return;
  if (user?.role === 'driver' && user.driverId === found.driverId) return;
  if (found.owner === userId && found.status !== 'CANCELLED') return;
  throw handoverNotFound();
}

/** GET /handovers/{id}/photos: the handover's condition photos, oldest first (for the viewers above; staff also via the machine token). */
export async function handoverPhotoList(db: Db, viewer: { userId: number } | 'staff', id: number): Promise<HandoverPhotoView[]> {
  if (viewer === 'staff') {
    const [h] = await db.select({ id: subscriptionHandovers.id }).from(subscriptionHandovers).where(eq(subscriptionHandovers.id, id));
    if (!h) throw handoverNotFound();
  } else await requireViewer(db, viewer.userId, id);
  const rows = await db.select(listed).from(handoverPhotos).where(eq(handoverPhotos.handoverId, id)).orderBy(asc(handoverPhotos.id));
  return rows.map(view);
}

/** GET /handovers/{id}/photos/{photoId}: the image's bytes, type and strong ETag (its SHA-256), for the same viewers. */
export async function handoverPhotoBytes(db: Db, userId: number, id: number, photoId: number): Promise<{ bytes: Buffer; contentType: string; etag: string }> {
  await requireViewer(db, userId, id);
  const [p] = await db
    .select({ bytes: handoverPhotos.bytes, contentType: handoverPhotos.contentType, sha256: handoverPhotos.sha256 })
    .from(handoverPhotos)
    .where(and(eq(handoverPhotos.id, photoId), eq(handoverPhotos.handoverId, id)));
  if (!p) throw photoNotFound();
  return { bytes: p.bytes, contentType: p.contentType, etag: `"${p.sha256}"` };
}
