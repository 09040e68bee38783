import { instantOf, wallTime, type WaypointRow } from '../../butler/reservation-form';
import type { ButlerRequestView } from '../../../domain/butler';
import type { ButlerRequestUpdateInput } from '../../../domain/schemas/butler';

/** Spec §9: edits send month 1 and a temporary billing key (the server keeps the card registered at booking). */
const EDIT_MONTH = 1;
export const TEMP_BILLING_KEY = 'temp-billing-key';

/** The edit form's values: times as datetime-local values in Korea time ('' for none). */
export interface EditDraft {
  start: string;
  end: string;
  startLocation: string;
  endLocation: string;
  description: string;
  waypoints: WaypointRow[];
}

/** An instant as a datetime-local value in Korea time; '' for none. */
const wall = (at: string | null) => (at ? wallTime(at) : '');

/** The form's starting values for a request. */
export function draftOf(r: ButlerRequestView): EditDraft {
  return {
    start: wall(r.start_at),
    end: wall(r.end_at),
    startLocation: r.start_location,
    endLocation: r.end_location,
    description: r.description ?? '',
    waypoints: r.way_points.map((w, i) => ({ key: i + 1, address: w.address, time: wall(w.scheduled_time) })),
  };
}

/**
 * The PUT /butlers/requests/{id} body for a draft, or a Korean problem to show instead.
 * Rows with a blank address are not sent (spec §5).
 */
export function payloadOf(d: EditDraft): { payload: ButlerRequestUpdateInput } | { problem: string } {
  const start = instantOf(d.start);
  const end = d.end ? instantOf(d.end) : null;
  if (!start || !d.startLocation.trim() || !d.endLocation.trim()) return { problem: '필수 값을 모두 입력해주세요.' };
  if (d.end && !end) return { problem: '도착 시간 형식이 올바르지 않습니다.' };
  return {
    payload: {
      month: EDIT_MONTH,
      billing_key: TEMP_BILLING_KEY,
      start_at: start.toISOString(),
      end_at: end ? end.toISOString() : null,
      start_location: d.startLocation.trim(),
      end_location: d.endLocation.trim(),
      description: d.description.trim() || null,
      way_points: d.waypoints
        .filter((w) => w.address.trim())
        .map((w) => ({ address: w.address.trim(), scheduled_time: instantOf(w.time)?.toISOString() ?? null })),
    },
  };
}
