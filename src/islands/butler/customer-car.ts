import { customerCarAsButlerCar, judgeOwnCar, type CustomerCar, type CustomerCarClaim, type SubscriptionCarChoice } from '../../domain/butler-own-car';
import type { ButlerCar } from '../../domain/butler';

/** What the own-car step holds while the customer types (BUTLER_LEGAL_MODEL=own-car). */
export type CustomerCarDraft =
  | { kind: 'none' }
  | { kind: 'subscription'; subscriptionId: number }
  | { kind: 'own'; makeModel: string; plate: string; insured: boolean };

const NO_CUSTOMER_CAR: CustomerCarDraft = { kind: 'none' };
const CHOOSE_CAR_MESSAGE = '기사가 운전할 차량을 선택하거나 입력해주세요.';

/** The subscription a link from /my preselects (`?subscription=ID`), or none. */
export function draftFromSearch(search: string): CustomerCarDraft {
  const id = Number(new URLSearchParams(search).get('subscription'));
  return Number.isInteger(id) && id > 0 ? { kind: 'subscription', subscriptionId: id } : NO_CUSTOMER_CAR;
}

export interface CustomerCarReading {
  /** The body's customer_car, when the step is complete and valid. */
  claim: CustomerCarClaim | null;
  /** The car in the fleet car's shape for pricing and the summary (null until chosen). */
  car: ButlerCar | null;
  /** Why it cannot be sent yet (Korean), or null. */
  problem: string | null;
}

/** The step read against the subscription cars offered and the driver's hourly rate (the server judges the same). */
export function readCustomerCar(draft: CustomerCarDraft, choices: SubscriptionCarChoice[], hourlyRate: number): CustomerCarReading {
  if (draft.kind === 'subscription') {
    const c = choices.find((x) => x.subscription_id === draft.subscriptionId);
    if (!c) return { claim: null, car: null, problem: CHOOSE_CAR_MESSAGE };
    const car: CustomerCar = { kind: 'subscription', subscription_id: c.subscription_id, car_id: c.car_id, name: c.name, plate: c.plate };
    return { claim: { kind: 'subscription', subscription_id: c.subscription_id }, car: customerCarAsButlerCar(car, hourlyRate), problem: null };
  }
  if (draft.kind === 'own') {
    const verdict = judgeOwnCar({ make_model: draft.makeModel, plate: draft.plate, insured: draft.insured });
    // The price shows as soon as there is a name; the plate and insurance are said on sending.
    const name = draft.makeModel.trim() || '내 차량';
    const shown = customerCarAsButlerCar(verdict.ok ? verdict.car : { kind: 'own', name, plate: draft.plate.trim(), insured: true }, hourlyRate);
    if (!verdict.ok) return { claim: null, car: shown, problem: verdict.message };
    return { claim: { kind: 'own', make_model: verdict.car.name, plate: verdict.car.plate, insured: true }, car: shown, problem: null };
  }
  return { claim: null, car: null, problem: CHOOSE_CAR_MESSAGE };
}
