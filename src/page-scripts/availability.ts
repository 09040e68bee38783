import { fetchAvailability } from '../client/availability';

/**
 * Fills every `[data-availability][data-car-id]` under `root` with the car's line now (구독 가능 /
 * "YYYY.MM.DD부터 구독 가능"): the pages stay static and fast, this one small read says what a
 * hold or a confirmation changed since they were built (docs/decisions/availability.md).
 */
export async function showAvailability(root: ParentNode = document): Promise<void> {
  const slots = [...root.querySelectorAll<HTMLElement>('[data-availability][data-car-id]')];
  if (!slots.length) return;
  const found = await fetchAvailability(slots.map((s) => Number(s.dataset.carId)));
  for (const slot of slots) {
    const a = found.get(Number(slot.dataset.carId));
    if (!a) continue;
    const free = a.text === '구독 가능';
    slot.textContent = a.text;
    slot.dataset.availableFrom = a.available_from;
    slot.dataset.free = String(free);
    slot.classList.toggle('text-danger', !free);
    slot.hidden = false;
  }
}
