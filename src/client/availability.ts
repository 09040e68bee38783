import { API_BASE_URL } from '../config/services';
import type { CarAvailability } from '../domain/availability';
import type { ApiData, ApiPath } from './api';

// The live read behind the availability lines of the static pages and the garage (docs/decisions/availability.md).

/** Reads what is true now for these cars (GET /subscriptions/availability, 100 a request); cars it could not read are left out. */
export async function fetchAvailability(ids: readonly number[], base = API_BASE_URL): Promise<Map<number, CarAvailability>> {
  const found = new Map<number, CarAvailability>();
  const unique = [...new Set(ids.filter((n) => Number.isInteger(n) && n > 0))];
  for (let i = 0; i < unique.length; i += 100) {
    try {
      const res = await fetch(`${base}${'/subscriptions/availability' satisfies ApiPath}?ids=${unique.slice(i, i + 100).join(',')}`);
      if (!res.ok) continue;
      const body = (await res.json()) as { data?: ApiData<'/subscriptions/availability'> };
      for (const a of body.data?.availability ?? []) found.set(a.car_id, a);
    } catch {
      // Offline or the API is away: the static page stands as built.
    }
  }
  return found;
}
