import { call, client } from '../client/api';
import type { ButlerCar } from '../domain/butler';
import { prefillToSearch } from '../domain/butler-prefill';
import { todayInKorea } from '../domain/dates';
import { calendarHtml, shiftMonth, type CalendarState } from './fleet-calendar';

/** Shown when the fleet cannot be refreshed from the API (spec 3 §8). */
const FLEET_LOAD_FAILED = '차량 목록을 불러오지 못했습니다.';

/** One card: gallery arrows, the calendar toggle, day choice and the Reserve link (carId and date carried). */
function initCard(card: HTMLElement) {
  const carId = Number(card.dataset.carId);
  const today = todayInKorea(new Date());
  const state: CalendarState = { year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)), reserved: JSON.parse(card.dataset.reserved ?? '[]') as ButlerCar['butler_reservated_dates'], selected: null };
  const panel = card.querySelector<HTMLElement>('[data-calendar]')!;
  const toggle = card.querySelector<HTMLButtonElement>('[data-calendar-toggle]')!;
  const reserve = card.querySelector<HTMLAnchorElement>('[data-reserve]')!;
  const chosen = card.querySelector<HTMLElement>('[data-selected-date]')!;

  const render = () => {
    if (!panel.hidden) panel.innerHTML = calendarHtml(state, todayInKorea(new Date()));
    reserve.href = `/butler/request?${prefillToSearch({ carId, date: state.selected ?? undefined })}`;
    chosen.textContent = state.selected ? `선택한 날짜: ${state.selected}` : '';
  };
  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute('aria-expanded', String(!panel.hidden));
    card.querySelector('[data-calendar-label]')!.textContent = panel.hidden ? '예약 현황 보기' : '예약 현황 닫기';
    render();
  });
  panel.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('button');
    if (!button || button.disabled) return;
    if (button.dataset.month) Object.assign(state, shiftMonth(state.year, state.month, button.dataset.month === 'next' ? 1 : -1));
    else if (button.dataset.day) state.selected = state.selected === button.dataset.day ? null : button.dataset.day;
    render();
    panel.querySelector<HTMLElement>(button.dataset.month ? `[data-month="${button.dataset.month}"]` : `[data-day="${button.dataset.day}"]`)?.focus();
  });
  initGallery(card);
  return {
    carId,
    /** The API's reserved days replace the build's; a chosen day that is now taken is dropped. */
    setReserved(days: string[]) {
      state.reserved = days;
      if (state.selected && days.includes(state.selected)) state.selected = null;
      render();
    },
  };
}

/** Arrow buttons and the 'n / total' count of a card's swipeable images. */
function initGallery(card: HTMLElement) {
  const track = card.querySelector<HTMLElement>('[data-gallery-track]');
  const count = card.querySelector<HTMLElement>('[data-gallery-count]');
  if (!track || !count) return;
  const total = track.children.length;
  const smooth = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
  const current = () => Math.round(track.scrollLeft / Math.max(1, track.clientWidth));
  // The image the arrows are scrolling to: a second click during the smooth scroll steps on from
  // there, not from the image still half in view (two quick 이전 clicks from 2 went to 1, not 3).
  let target: number | null = null;
  const show = () => (count.textContent = `${(target ?? current()) + 1} / ${total}`);
  const go = (step: number) => {
    target = ((((target ?? current()) + step) % total) + total) % total;
    track.scrollTo({ left: target * track.clientWidth, behavior: smooth });
    show();
  };
  card.querySelector('[data-gallery-prev]')?.addEventListener('click', () => go(-1));
  card.querySelector('[data-gallery-next]')?.addEventListener('click', () => go(1));
  // A swipe, wheel or key takes over from the arrows.
  for (const type of ['pointerdown', 'wheel', 'keydown'] as const) track.addEventListener(type, () => (target = null), { passive: true });
  track.addEventListener(
    'scroll',
    () => {
      if (target !== null && Math.abs(track.scrollLeft - target * track.clientWidth) < 1) target = null;
      show();
    },
    { passive: true },
  );
}

/** The fleet page: cards from the build, calendars refreshed from GET /butlers/cars on load. */
export function initFleet(root: HTMLElement): void {
  const cards = [...root.querySelectorAll<HTMLElement>('[data-fleet-car]')].map(initCard);
  const error = root.querySelector<HTMLElement>('[data-fleet-error]');
  void call((o) => client.butlers.cars.$get({}, o)).then((res) => {
    if (!res.ok || !Array.isArray(res.data.cars)) {
      if (error) {
        error.hidden = false;
        error.textContent = FLEET_LOAD_FAILED;
      }
    } else {
      for (const card of cards) card.setReserved(res.data.cars.find((c) => c.id === card.carId)?.butler_reservated_dates ?? []);
    }
    root.dataset.refreshed = String(res.ok);
  });
}
