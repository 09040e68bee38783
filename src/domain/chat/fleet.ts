import { INCLUDED_HOURS, overtimeRate, seatsFromSubModel, type ButlerCar } from '../butler';
import { won } from '../money';

/** What the assistant needs of a butler car (GET /butlers/cars has more). */
export type ChatCar = Pick<ButlerCar, 'id' | 'sub_model' | 'butler_fee' | 'butler_overtime_fee' | 'butler_reservated_dates'> & {
  model: { name: string; brand: { name: string } };
};

const compact = (s: string) => s.toLowerCase().replace(/[\s\-_.]/g, '');

/** Korean names of brands, keyed by the brand's name without spaces and hyphens, lower case. */
const BRAND_ALIASES: Record<string, string[]> = {
  mercedesbenz: ['벤츠', '메르세데스', '메르세데스벤츠', 'benz', 'mercedes'],
  mercedes: ['벤츠', '메르세데스', 'benz', 'mercedes'],
  rollsroyce: ['롤스로이스', '롤스', 'rollsroyce', 'rolls'],
  bentley: ['벤틀리', 'bentley'],
  bmw: ['비엠더블유', '비엠', 'bmw'],
  kia: ['기아', 'kia'],
  genesis: ['제네시스', 'genesis'],
  porsche: ['포르쉐', 'porsche'],
  audi: ['아우디', 'audi'],
  lexus: ['렉서스', 'lexus'],
  cadillac: ['캐딜락', 'cadillac'],
  hyundai: ['hyundai'], // 현대 is in too many place names (현대백화점)
  ferrari: ['페라리', 'ferrari'],
  lamborghini: ['람보르기니', 'lamborghini'],
  maserati: ['마세라티', 'maserati'],
  astonmartin: ['애스턴마틴', '애스톤마틴'],
  landrover: ['랜드로버', '레인지로버'],
  lincoln: ['링컨', 'lincoln'],
  volvo: ['볼보', 'volvo'],
  tesla: ['테슬라', 'tesla'],
};

/** Korean names of models, keyed like the brands. */
const MODEL_ALIASES: Record<string, string[]> = {
  maybachsclass: ['마이바흐', '마이바흐s클래스', 'maybach'],
  sclass: ['s클래스', '에스클래스', 'sclass'],
  eclass: ['e클래스', '이클래스', 'eclass'],
  gclass: ['g클래스', '지클래스', '지바겐', 'g바겐', 'g63', 'gclass', 'g wagen'],
  ghost: ['고스트', 'ghost'],
  cullinan: ['컬리넌', '컬리난', '쿨리넌', 'cullinan'],
  phantom: ['팬텀', 'phantom'],
  spectre: ['스펙터', 'spectre'],
  bentayga: ['벤테이가', 'bentayga'],
  flyingspur: ['플라잉스퍼', 'flying spur'],
  i7: ['i7', '아이세븐'],
  '7series': ['7시리즈', '세븐시리즈'],
  carnivalhilimousine: ['카니발', '카니발하이리무진', '하이리무진', '카니발리무진', 'carnival'],
  carnival: ['카니발', 'carnival'],
  g90: ['g90', '지90'],
  g80: ['g80', '지80'],
  escalade: ['에스컬레이드', 'escalade'],
};

/** The name the chat shows for a car: brand and model. */
export function carName(car: ChatCar): string {
  return `${car.model.brand.name} ${car.model.name}`.trim();
}

/** Seats of a car (from "(N인승)" in its sub-model, default 4). */
export const carSeats = (car: ChatCar) => seatsFromSubModel(car.sub_model);

/** Whether the car is already booked on a day (YYYY-MM-DD). */
export const isReservedOn = (car: ChatCar, date: string) => car.butler_reservated_dates.includes(date);

/** A regex for a name, tolerant of spaces and hyphens between letters; short Latin names need word edges. */
function nameRegex(key: string): RegExp {
  const chars = [...compact(key)].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const body = chars.join('[\\s\\-]*');
  const latin = /^[a-z0-9]+$/.test(compact(key));
  return new RegExp(latin ? `(?<![a-z0-9])${body}(?![a-z0-9])` : body, 'i');
}

function modelKeys(car: ChatCar): string[] {
  const key = compact(car.model.name);
  const keys = new Set([car.model.name, ...(MODEL_ALIASES[key] ?? [])]);
  const first = car.model.name.split(/[\s-]/)[0];
  if (first && compact(first).length >= 4 && first !== car.model.name) keys.add(first);
  return [...keys].filter((k) => compact(k).length >= 2);
}

function brandKeys(car: ChatCar): string[] {
  return [car.model.brand.name, ...(BRAND_ALIASES[compact(car.model.brand.name)] ?? [])].filter((k) => compact(k).length >= 2);
}

/** Where a car was named in a message (to mask it) and which car. */
export interface CarMention {
  /** The car meant, when one is clear. */
  car?: ChatCar;
  /** Several cars fit (a brand with more than one model). */
  choices?: ChatCar[];
  index: number;
  length: number;
}

function longest(text: string, keys: string[]): { index: number; length: number } | null {
  let best: { index: number; length: number } | null = null;
  for (const key of keys) {
    const m = nameRegex(key).exec(text);
    if (m && (!best || m[0].length > best.length)) best = { index: m.index, length: m[0].length };
  }
  return best;
}

/** Extends a mention over a particle glued to it (마이바흐로, 고스트를). */
function withParticle(text: string, at: { index: number; length: number }) {
  const tail = text.slice(at.index + at.length).match(/^(?:으로요|로요|으로|로|를|을|은|는|이|가|요)?/);
  return { index: at.index, length: at.length + (tail?.[0].length ?? 0) };
}

/**
 * The fleet car a message names, by model (Korean or Latin: 마이바흐, 고스트, 지바겐, G90)
 * or by brand (벤츠 → choices when the brand has several). Longest name wins.
 */
export function findCar(text: string, fleet: ChatCar[]): CarMention | null {
  let best: { car: ChatCar; index: number; length: number } | null = null;
  let tie: ChatCar[] = [];
  for (const car of fleet) {
    const hit = longest(text, modelKeys(car));
    if (!hit) continue;
    if (!best || hit.length > best.length) {
      best = { car, ...hit };
      tie = [car];
    } else if (hit.length === best.length && hit.index === best.index) tie.push(car);
  }
  if (best) {
    // A brand said before the model belongs to the mention ("롤스로이스 고스트").
    const brand = longest(text.slice(0, best.index), brandKeys(best.car));
    const start = brand && text.slice(brand.index + brand.length, best.index).trim() === '' ? brand.index : best.index;
    const span = withParticle(text, { index: start, length: best.index + best.length - start });
    return tie.length > 1 ? { choices: tie, ...span } : { car: best.car, ...span };
  }
  let brandHit: { index: number; length: number } | null = null;
  let byBrand: ChatCar[] = [];
  for (const car of fleet) {
    const hit = longest(text, brandKeys(car));
    if (hit) {
      byBrand.push(car);
      if (!brandHit || hit.length > brandHit.length) brandHit = hit;
    }
  }
  if (!brandHit) return null;
  byBrand = byBrand.filter((c) => longest(text, brandKeys(c))?.length === brandHit.length);
  const span = withParticle(text, brandHit);
  return byBrand.length === 1 ? { car: byBrand[0], ...span } : { choices: byBrand, ...span };
}

/** Price of a trip of `hours` (8 h included; each started hour beyond is overtime), in won. */
export function quoteForHours(car: ChatCar, hours: number) {
  const overtimeHours = Math.max(0, Math.ceil(Math.round((hours - INCLUDED_HOURS) * 1000) / 1000));
  const rate = overtimeRate(car);
  return { base: car.butler_fee, overtimeHours, rate, overtime: overtimeHours * rate, total: car.butler_fee + overtimeHours * rate };
}

/** One line per car: name, seats, the 8-hour fee and the overtime rate. */
export function fleetLine(car: ChatCar): string {
  return `· ${carName(car)} (${carSeats(car)}인승): 8시간 ${won(car.butler_fee)}, 초과 1시간당 ${won(overtimeRate(car))}`;
}

/** The fleet that can take a trip: free on the day (when known) and seating everyone (when known), cheapest first. */
export function availableCars(fleet: ChatCar[], date?: string, passengers?: number): ChatCar[] {
  return fleet
    .filter((c) => (!date || !isReservedOn(c, date)) && (!passengers || carSeats(c) >= passengers))
    .sort((a, b) => a.butler_fee - b.butler_fee || a.id - b.id);
}
