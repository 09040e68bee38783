import { termPriceText } from '../../domain/car';
import { inquire } from './inquire';

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
  slider?.addEventListener('input', () => {
    month = terms[Number(slider.value)] ?? month;
    show();
  });
  root.querySelector('[data-inquire]')?.addEventListener('click', () => inquire(carId, month));
}
