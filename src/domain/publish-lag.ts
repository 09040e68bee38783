/**
 * How far the storefront's pages are behind the catalogue: staff are told (the console's publish
 * panel, and a staff notification) once the catalogue has held changes the published pages do
 * not show for longer than PUBLISH_LAG_ALERT_MS. An edit is live in seconds, a full build of
 * 100,000 cars takes minutes; a minute behind means builds fail or do not run.
 */

export const PUBLISH_LAG_ALERT_MS = 60_000;

/** The pages' lag behind the catalogue: since when, and for how many whole seconds at `now`. */
export interface PublishLag {
  since: string;
  seconds: number;
}

/**
 * The lag when it is over the alert limit, else null. `behindSince` is when the catalogue first
 * moved past the published version (null: it has not, or nothing says when).
 */
export function publishLag(state: { catalogueVersion: number; publishedVersion: number | null; behindSince: Date | null }, now: Date): PublishLag | null {
  if (state.publishedVersion !== null && state.publishedVersion >= state.catalogueVersion) return null;
  if (!state.behindSince) return null;
  const ms = now.getTime() - state.behindSince.getTime();
  if (ms <= PUBLISH_LAG_ALERT_MS) return null;
  return { since: state.behindSince.toISOString(), seconds: Math.floor(ms / 1000) };
}

