import { describe, expect, it } from 'vitest';
import { draftOf, payloadOf, TEMP_BILLING_KEY } from '../../../src/islands/butler-lists/detail/draft';
import type { ButlerRequestView } from '../../../src/domain/butler';

const request = {
  id: 7,
  start_at: '2026-12-03T00:30:00.000Z',
  end_at: null,
  start_location: '서울 중구 세종대로 110',
  end_location: '인천 중구 공항로 272',
  description: null,
  way_points: [{ id: 1, address: '서울 종로구 사직로 161', scheduled_time: '2026-12-03T03:00:00.000Z' }],
} as unknown as ButlerRequestView;

describe('butler edit draft', () => {
  it('shows the times as Korean wall times and an open end as blank', () => {
    const d = draftOf(request);
    expect(d.start).toBe('2026-12-03T09:30');
    expect(d.end).toBe('');
    expect(d.description).toBe('');
    expect(d.waypoints).toEqual([{ key: 1, address: '서울 종로구 사직로 161', time: '2026-12-03T12:00' }]);
  });

  it('builds the update payload: month 1, the temporary key, Korea time read back, blank waypoint rows dropped', () => {
    const d = { ...draftOf(request), end: '2026-12-03T18:00', description: '  ', waypoints: [...draftOf(request).waypoints, { key: 9, address: ' ', time: '2026-12-03T13:00' }] };
    const built = payloadOf(d);
    expect(built).toEqual({
      payload: {
        month: 1,
        billing_key: TEMP_BILLING_KEY,
        start_at: '2026-12-03T00:30:00.000Z',
        end_at: '2026-12-03T09:00:00.000Z',
        start_location: '서울 중구 세종대로 110',
        end_location: '인천 중구 공항로 272',
        description: null,
        way_points: [{ address: '서울 종로구 사직로 161', scheduled_time: '2026-12-03T03:00:00.000Z' }],
      },
    });
  });

  it('refuses a draft without a start time or a location', () => {
    expect(payloadOf({ ...draftOf(request), start: '' })).toEqual({ problem: '필수 값을 모두 입력해주세요.' });
    expect(payloadOf({ ...draftOf(request), endLocation: ' ' })).toEqual({ problem: '필수 값을 모두 입력해주세요.' });
  });
});
