import { won } from '../domain/money';
import {
  defaultOptions, optionRefusal, optionsQuery, pricedOptions, quoteSubscriptionOrder, type CarOptionPrices, type DeliveryZone, type SubscriptionOptions, type SubscriptionOrderQuote,
} from '../domain/subscription-price';

type Shown = 'paid_today' | 'monthly' | 'deposit' | 'term_total';

/**
 * Drives the car page's options and price summary (CarOptions markup) before login: reads the car's
 * option prices from the page, prices each choice with quoteSubscriptionOrder for the slider's term,
 * and keeps the choice as an address query in the purchase box's data-options (empty for the
 * defaults), which 구독 신청하기 carries to /inquire (through login).
 */
export function initOptions(root: HTMLElement): void {
  const box = root.querySelector<HTMLElement>('[data-options]');
  if (!box?.dataset.optionPrices) return;
  const prices = JSON.parse(box.dataset.optionPrices) as CarOptionPrices;
  const terms = JSON.parse(root.dataset.terms ?? '[]') as number[];
  const fees = JSON.parse(root.dataset.fees ?? '{}') as Record<string, number | null>;
  const slider = root.querySelector<HTMLInputElement>('input[type="range"]');
  const value = (name: string) => box.querySelector<HTMLSelectElement>(`select[name="${name}"]`)?.value ?? '';
  const defaults = defaultOptions(prices);

  const read = (): { options: SubscriptionOptions; zone: DeliveryZone | null } => {
    const handover = value('handover');
    return {
      options: {
        ...defaults,
        mileage_km: Number(value('km')) || defaults.mileage_km,
        driver_age: value('age') === '21' ? 'AGE_21' : 'AGE_26',
        extra_drivers: Number(value('drivers')) || 0,
        handover: handover === 'capital' || handover === 'other' ? 'DELIVERY' : 'PICKUP',
        prepayment: Number(value('prepay')) || 0,
      },
      zone: handover === 'other' ? 'OTHER' : handover === 'capital' ? 'CAPITAL' : null,
    };
  };

  const show = () => {
    const month = slider ? terms[Number(slider.value)] : terms.at(-1);
    const fee = month === undefined ? null : (fees[month] ?? null);
    box.hidden = fee === null;
    if (month === undefined || fee === null) return;
    const { options, zone } = read();
    // 선납금 amounts the term does not admit (credit over half the fee) are offered disabled.
    box.querySelectorAll<HTMLOptionElement>('select[name="prepay"] option').forEach((o) => {
      const p = Number(o.value);
      o.disabled = p > 0 && optionRefusal({ month, fee, prices, options: { ...options, handover: 'PICKUP', prepayment: p } }) !== null;
    });
    const prepay = box.querySelector<HTMLSelectElement>('select[name="prepay"]');
    if (prepay?.selectedOptions[0]?.disabled) {
      prepay.value = '0';
      options.prepayment = 0;
    }
    const q: SubscriptionOrderQuote = quoteSubscriptionOrder({ month, fee, prices, options: { ...pricedOptions(options), zone } });
    box.querySelectorAll<HTMLElement>('[data-q]').forEach((el) => {
      el.textContent = won(q[el.dataset.q as Shown]);
    });
    const same = options.mileage_km === defaults.mileage_km && options.driver_age === 'AGE_26' && options.extra_drivers === 0 && options.handover === 'PICKUP' && options.prepayment === 0;
    root.dataset.options = same ? '' : optionsQuery(options, zone);
  };
  root.addEventListener('input', show);
  root.addEventListener('change', show);
  show();
}
