import { fetchAvailability } from '../client/availability';
import { shorterTermNote } from '../domain/availability';

/**
 * Fills every `[data-availability][data-car-id]` under `root` with the car's line now (구독 가능 /
 * "YYYY.MM.DD부터 구독 가능" / "최대 N개월 구독 가능"): the pages stay static and fast, this one small
 * read says what a hold or a confirmation changed since they were built. A slot with `data-month`
 * (the car page's slider) is judged for that term; `data-note` adds the longest term that fits now
 * when the chosen one does not (docs/decisions/availability.md).
 */
export async function showAvailability(root: ParentNode = document): Promise<void> {
  const slots = [...root.querySelectorAll<HTMLElement>('[data-availability][data-car-id]')];
  if (!slots.length) return;
  // One read per term asked (every card of a page asks for none: one read in all).
  const byMonth = new Map<string, HTMLElement[]>();
  for (const s of slots) byMonth.set(s.dataset.month ?? '', [...(byMonth.get(s.dataset.month ?? '') ?? []), s]);
  await Promise.all(
    [...byMonth].map(async ([month, group]) => {
      const found = await fetchAvailability(group.map((s) => Number(s.dataset.carId)), { month: Number(month) || null });
      for (const slot of group) {
        const a = found.get(Number(slot.dataset.carId));
        // The slider moved on while this read was out: the later read fills the slot.
        if (!a || (slot.dataset.month ?? '') !== month) continue;
        const note = slot.dataset.note !== undefined ? shorterTermNote(a) : '';
        slot.textContent = note ? `${a.text} · ${note}` : a.text;
        slot.dataset.availableFrom = a.available_from;
        slot.dataset.free = String(a.free);
        slot.classList.toggle('text-danger', !a.free);
        slot.hidden = false;
      }
    }),
  );
}
