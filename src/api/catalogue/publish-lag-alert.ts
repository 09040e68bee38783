import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { publishBuilds } from '../db/schema';
import { emit } from '../notifications/events';
import { publishStatus } from './publish-builds';
import { wallMs } from '../jobs/clock';

/**
 * Tells staff (a staff notification: email and KakaoTalk, as staff alerts go) when the pages lag
 * the catalogue by more than a minute. Every replica checks (src/host/main.ts); the event's key is
 * the published version that went stale, so each stale spell is one message however many replicas
 * or checks see it. The console's publish panel shows the same lag while it lasts. `now` is the
 * real time (the build rows' clock); `sendAt` the business clock's, which the outbox runs on.
 */
export async function alertPublishLag(db: Db, now = new Date(wallMs()), sendAt = now): Promise<boolean> {
  const status = await publishStatus(db, now);
  if (!status.lag) return false;
  const published = status.publishedVersion;
  const [failed] = await db
    .select({ error: publishBuilds.error })
    .from(publishBuilds)
    .where(and(eq(publishBuilds.status, 'failed'), published === null ? undefined : gt(publishBuilds.catalogueVersion, published)))
    .orderBy(desc(publishBuilds.startedAt), desc(publishBuilds.id))
    .limit(1);
  // The first line of the last failed build of what is not published yet: what staff pass on.
  const error = failed?.error?.split('\n')[0];
  return emit(db, `staff.publish_lagging:${published ?? 'none'}`, { type: 'staff.publish_lagging', catalogueVersion: status.catalogueVersion, publishedVersion: published, since: status.lag.since, error }, sendAt);
}
