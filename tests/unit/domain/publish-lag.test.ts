import { describe, expect, it } from 'vitest';
import { publishLag, PUBLISH_LAG_ALERT_MS } from '../../../src/domain/publish-lag';

describe('the pages lag behind the catalogue', () => {
  const since = new Date('2026-03-01T00:00:00.000Z');
  const at = (ms: number) => new Date(since.getTime() + ms);

  it('is reported once the catalogue has been ahead of the published pages for more than a minute', () => {
    const behind = { catalogueVersion: 7, publishedVersion: 5, behindSince: since };
    expect(publishLag(behind, at(PUBLISH_LAG_ALERT_MS))).toBeNull();
    expect(publishLag(behind, at(PUBLISH_LAG_ALERT_MS + 1000))).toEqual({ since: since.toISOString(), seconds: 61 });
    // Nothing published yet counts as behind.
    expect(publishLag({ ...behind, publishedVersion: null }, at(5 * 60_000))).toEqual({ since: since.toISOString(), seconds: 300 });
  });

  it('is none when the pages show the catalogue, or nothing says since when', () => {
    expect(publishLag({ catalogueVersion: 7, publishedVersion: 7, behindSince: since }, at(3_600_000))).toBeNull();
    expect(publishLag({ catalogueVersion: 7, publishedVersion: 5, behindSince: null }, at(3_600_000))).toBeNull();
  });
});
