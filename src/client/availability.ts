import { API_BASE_URL } from '../config/services';
import type { CarAvailability } from '../domain/availability';
import type { ApiData, ApiPath } from './api';

// The live read behind the availability lines of the static pages and the garage (docs/decisions/availability.md).

/** What the line is judged for: the term the page shows (slider, months filter, order) and the order's chosen start. */
export interface AvailabilityAsk {
  month?: number | null;
  start?: string | null;
}

/** Reads what is true now for these cars (GET /subscriptions/availability, 100 a request; `fresh` past the 30 s cache); cars it could not read are left out. */
export async function fetchAvailability(ids: readonly number[], ask: AvailabilityAsk = {}, base = API_BASE_URL, fresh = false): Promise<Map<number, CarAvailability>> {
  const found = new Map<number, CarAvailability>();
  const unique = [...new Set(ids.filter((n) => Number.isInteger(n) && n > 0))];
  const extra = `${ask.month ? `&month=${ask.month}` : ''}${ask.start ? `&start=${ask.start}` : ''}`;
  for (let i = 0; i < unique.length; i += 100) {
    try {
      const res = await fetch(`${base}${'/subscriptions/availability' satisfies ApiPath}?ids=${unique.slice(i, i + 100).join(',')}${extra}`, fresh ? { cache: 'no-store' } : undefined);
      if (!res.ok) continue;
      const body = (await res.json()) as { data?: ApiData<'/subscriptions/availability'> };
      for (const a of body.data?.availability ?? []) found.set(a.car_id, a);
    } catch {
      // Offline or the API is away: the static page stands as built.
    }
  }
  return found;
}
