import { orderRefusal, termPriceText } from '../domain/car';
import { todayInKorea } from '../domain/dates';
import { inquire } from '../client/inquire';
import { showAvailability } from './availability';

/** Drives the pre-rendered CarPurchase markup on static car pages without shipping React. */
export function initPurchase(root: HTMLElement): void {
  const carId = Number(root.dataset.carId);
  const terms = JSON.parse(root.dataset.terms ?? '[]') as number[];
  const fees = JSON.parse(root.dataset.fees ?? '{}') as Record<string, number | null>;
  const slider = root.querySelector<HTMLInputElement>('input[type="range"]');
  const selected = root.querySelector<HTMLElement>('[data-testid="selected-month"]')!;
  const fee = root.querySelector<HTMLElement>('[data-testid="monthly-fee"]')!;
  let month: number | null = terms.at(-1) ?? null;

  const show = () => {
    selected.textContent = month === null ? '-' : `${month}개월`;
    fee.textContent = month === null ? '문의 필요' : termPriceText({ [`subscription_fee_${month}`]: fees[month] }, month);
    slider?.setAttribute('aria-valuetext', `${month}개월`);
    root.querySelectorAll<HTMLElement>('[data-term]').forEach((li) => li.classList.toggle('font-semibold', Number(li.dataset.term) === month));
    root.querySelectorAll<HTMLElement>('[data-term]').forEach((li) => li.classList.toggle('text-ink', Number(li.dataset.term) === month));
  };
  // The availability line is judged for the chosen term (a 12-month hold a few days away leaves no 12-month term now).
  const line = root.querySelector<HTMLElement>('[data-availability]');
  slider?.addEventListener('input', () => {
    month = terms[Number(slider.value)] ?? month;
    show();
    if (line && month !== null && line.dataset.month !== String(month)) {
      line.dataset.month = String(month);
      void showAvailability(root);
    }
  });
  const button = root.querySelector<HTMLButtonElement>('[data-inquire]');
  // The options (car-options.ts) ride along in the address.
  button?.addEventListener('click', () => inquire(carId, month, root.dataset.options ?? ''));
  // The page was built earlier: whether the car is open for orders is decided today, in the browser.
  const refusal = orderRefusal({ is_subscriptable: root.dataset.subscriptable !== 'false', subscription_available_from: root.dataset.availableFrom || null }, todayInKorea(new Date()));
  const note = root.querySelector<HTMLElement>('[data-order-refusal]');
  if (note) {
    note.textContent = refusal ?? '';
    note.hidden = !refusal;
  }
  if (button) button.disabled = Boolean(refusal);
}
