import { MAX_ADVANCE_DAYS, MAX_PASSENGERS, MIN_PASSENGERS } from '../butler';
import { addDays, koreaDate, koreaTime } from '../dates';
import { formatWon } from '../money';
import { availableCars, carName, carSeats, findCar, fleetLine, isReservedOn, quoteForHours, type ChatCar } from './fleet';
import { formatBookingValue, formatDateKo, SHOWN_KEYS } from './format';
import { parseMessage, type Intent } from './parser';
import { applyUpdates, BOOKING_KEYS, nextMissing, REQUIRED_KEYS, type BookingState, type BookingUpdates, type UiTrigger } from './state';

export interface DialogueContext {
  /** The clock, passed in: the domain never reads it. */
  now: Date;
  fleet: ChatCar[];
  /** A car chosen before the chat (/chat?carId=…). */
  carId?: number | null;
}

/** A reply of the assistant: text to stream, state changes and action buttons. */
export interface Reply {
  text: string;
  updates: BookingUpdates;
  ui_triggers: UiTrigger[];
  /** The question asked next, or null when the booking is complete. */
  next_prompt: string | null;
}

/** The one question the assistant asks for a missing key. */
export function questionFor(key: (typeof REQUIRED_KEYS)[number], state: BookingState, ctx: DialogueContext): string {
  switch (key) {
    case '날짜':
      return '언제 이용하실 예정인가요? (예: 내일, 다음 주 금요일, 12월 3일)';
    case '탑승 시간':
      return '몇 시에 탑승하실 예정인가요? (예: 오전 9시, 오후 2시 반, 14:30)';
    case '출발지':
      return '어디에서 출발하시나요? (예: 인천공항 제1터미널, 강남역)';
    case '목적지':
      return '목적지는 어디인가요?';
    case '탑승 인원':
      return '탑승 인원은 몇 명인가요?';
    case '차량': {
      const cars = availableCars(ctx.fleet, state.날짜, state['탑승 인원']);
      if (!cars.length) return '조건에 맞는 차량이 없습니다. 날짜나 인원을 바꿔 보시겠어요?';
      const names = cars.map((c) => `${carName(c)}(${formatWon(c.butler_fee)}원~)`).join(', ');
      return `원하시는 차량을 알려주세요. 이용 가능한 차량: ${names}`;
    }
  }
}

interface Checked {
  updates: BookingUpdates;
  warnings: string[];
}

/**
 * Checks updates (the local parser's or an LLM's) against the calendar and the fleet: no past
 * day, at most 180 days ahead, a car named by id or name that exists, is free that day and
 * seats everyone. What fails is dropped and said.
 */
export function reconcileUpdates(raw: BookingUpdates, state: BookingState, ctx: DialogueContext): Checked {
  const updates: BookingUpdates = { ...raw };
  const warnings: string[] = [];
  const today = koreaDate(ctx.now);

  if (updates.날짜) {
    if (updates.날짜 < today) {
      warnings.push(`${formatDateKo(updates.날짜, today)}은(는) 이미 지난 날짜입니다. 오늘 이후의 날짜를 알려주세요.`);
      delete updates.날짜;
    } else if (updates.날짜 > addDays(today, MAX_ADVANCE_DAYS)) {
      warnings.push(`예약은 오늘부터 ${MAX_ADVANCE_DAYS}일 이내의 날짜만 가능합니다.`);
      delete updates.날짜;
    }
  }
  const day = updates.날짜 ?? state.날짜;
  const time = updates['탑승 시간'];
  if (time && day === today && time <= koreaTime(ctx.now)) {
    warnings.push('이미 지난 시간입니다. 지금 이후의 탑승 시간을 알려주세요.');
    delete updates['탑승 시간'];
  }

  // The car: the id decides; a name alone is looked up in the fleet.
  if (updates['차량 번호'] !== undefined || updates.차량 !== undefined) {
    let car: ChatCar | undefined;
    if (updates['차량 번호']) car = ctx.fleet.find((c) => c.id === updates['차량 번호']);
    else if (updates.차량) car = findCar(updates.차량, ctx.fleet)?.car;
    if (updates['차량 번호'] === null || updates.차량 === null) {
      updates.차량 = null;
      updates['차량 번호'] = null;
    } else if (!car) {
      delete updates.차량;
      delete updates['차량 번호'];
    } else {
      updates.차량 = carName(car);
      updates['차량 번호'] = car.id;
    }
  }
  const passengers = updates['탑승 인원'] ?? state['탑승 인원'];
  const busy = (car: ChatCar) => {
    const others = availableCars(ctx.fleet, day, passengers).map(carName);
    warnings.push(
      `${carName(car)}은(는) ${formatDateKo(day!, today)}에 이미 예약되어 있습니다.` +
        (others.length ? ` 같은 날 이용 가능한 차량: ${others.join(', ')}` : ' 같은 날 이용 가능한 다른 차량이 없습니다.'),
    );
  };
  // A newly named car that is taken that day is not chosen; a chosen car that the new day makes taken is let go.
  let car = updates['차량 번호'] ? ctx.fleet.find((c) => c.id === updates['차량 번호']) : undefined;
  if (car && day && isReservedOn(car, day)) {
    busy(car);
    delete updates.차량;
    delete updates['차량 번호'];
    car = undefined;
  }
  if (!car && updates['차량 번호'] !== null && state['차량 번호']) {
    const kept = ctx.fleet.find((c) => c.id === state['차량 번호']);
    if (kept && day && isReservedOn(kept, day)) {
      if (updates.날짜) busy(kept);
      updates.차량 = null;
      updates['차량 번호'] = null;
    } else car = kept;
  }
  if (car && passengers && passengers > carSeats(car)) {
    const bigger = availableCars(ctx.fleet, day, passengers).map(carName);
    warnings.push(`${carName(car)}은(는) 최대 ${carSeats(car)}명까지 탑승할 수 있습니다.` + (bigger.length ? ` ${passengers}명이 타실 수 있는 차량: ${bigger.join(', ')}` : ''));
  }
  return { updates, warnings };
}

function describeUpdates(updates: BookingUpdates, today: string): string {
  const lines: string[] = [];
  for (const key of SHOWN_KEYS) {
    if (!(key in updates)) continue;
    const value = updates[key];
    lines.push(`· ${key}: ${value === null ? '삭제' : formatBookingValue(key, value, today)}`);
  }
  return lines.length ? `다음과 같이 반영했습니다.\n${lines.join('\n')}` : '';
}

function priceAnswer(car: ChatCar | undefined, hours: number | undefined, fleet: ChatCar[]): string {
  const rule = '요금은 8시간 기준이며, 8시간을 넘으면 시작된 1시간마다 초과 요금이 붙습니다. (초과 요금이 없는 차량은 기본 요금의 10%)';
  if (car) {
    const q = quoteForHours(car, hours ?? 8);
    let text = `${carName(car)}은(는) 8시간 ${formatWon(q.base)}원, 초과 1시간당 ${formatWon(q.rate)}원입니다.`;
    if (hours && hours > 0) {
      text +=
        q.overtimeHours > 0
          ? ` ${hoursText(hours)} 이용 시 ${formatWon(q.base)}원 + 초과 ${q.overtimeHours}시간 × ${formatWon(q.rate)}원 = ${formatWon(q.total)}원입니다.`
          : ` ${hoursText(hours)} 이용은 기본 요금 ${formatWon(q.total)}원에 포함됩니다.`;
    }
    return `${text}\n${rule}`;
  }
  const lines = [...fleet].sort((a, b) => a.butler_fee - b.butler_fee).map((c) => (hours && hours > 8 ? `${fleetLine(c)} → ${hoursText(hours)} ${formatWon(quoteForHours(c, hours).total)}원` : fleetLine(c)));
  return `차량별 요금입니다.\n${lines.join('\n')}\n${rule}`;
}

const hoursText = (h: number) => (Number.isInteger(h) ? `${h}시간` : `${Math.floor(h)}시간 ${Math.round((h % 1) * 60)}분`);

function availabilityAnswer(car: ChatCar | undefined, day: string | undefined, ctx: DialogueContext, today: string): string {
  if (car) {
    const taken = car.butler_reservated_dates.filter((d) => d >= today).slice(0, 10);
    if (day) return isReservedOn(car, day) ? `${carName(car)}은(는) ${formatDateKo(day, today)}에 이미 예약되어 있습니다.` : `${carName(car)}은(는) ${formatDateKo(day, today)}에 예약 가능합니다.`;
    return taken.length ? `${carName(car)}의 예약이 찬 날: ${taken.map((d) => formatDateKo(d, today)).join(', ')}` : `${carName(car)}은(는) 앞으로 예약된 날이 없습니다.`;
  }
  if (day) {
    const free = availableCars(ctx.fleet, day).map(carName);
    return free.length ? `${formatDateKo(day, today)}에 이용 가능한 차량: ${free.join(', ')}` : `${formatDateKo(day, today)}에는 모든 차량이 예약되어 있습니다.`;
  }
  return '날짜를 알려주시면 그날 이용 가능한 차량을 알려드립니다. 차량별 예약 현황은 차량 페이지의 달력에서도 볼 수 있습니다.';
}

const GREETING = '안녕하세요, LUXE 의전 예약 도우미입니다. 날짜와 시간, 출발지와 목적지, 인원, 원하시는 차량을 편하게 말씀해 주세요. (예: 내일 오후 2시 인천공항에서 강남역까지 3명)';

/** Starts over: every key removed. */
function resetReply(ctx: DialogueContext): Reply {
  const updates = Object.fromEntries(BOOKING_KEYS.map((k) => [k, null])) as BookingUpdates;
  const question = questionFor('날짜', {}, ctx);
  return { text: `예약 정보를 모두 지우고 처음부터 다시 시작합니다.\n${question}`, updates, ui_triggers: [], next_prompt: question };
}

/**
 * The local assistant's answer to one message: reads it, checks the result against the
 * fleet and the calendar, answers fleet, price and availability questions from the real
 * catalogue, and asks for the first missing detail (one question at a time).
 */
export function respond(message: string, state: BookingState, ctx: DialogueContext): Reply {
  const today = koreaDate(ctx.now);
  const parsed = parseMessage(message, { today, fleet: ctx.fleet, expecting: nextMissing(state) });
  const intents = new Set<Intent>(parsed.intents);
  if (intents.has('reset')) return resetReply(ctx);

  const raw: BookingUpdates = { ...parsed.updates };
  const named = raw['차량 번호'] ? ctx.fleet.find((c) => c.id === raw['차량 번호']) : undefined;
  // "마이바흐는 얼마예요?": a car named only in a question is answered about, not chosen.
  const onlyAsking = (intents.has('price') || intents.has('availability') || intents.has('fleet')) && !intents.has('confirm');
  if (named && onlyAsking && Object.keys(raw).every((k) => k === '차량' || k === '차량 번호' || k === '목적')) {
    delete raw.차량;
    delete raw['차량 번호'];
  }
  if (ctx.carId && !state['차량 번호'] && raw['차량 번호'] === undefined) {
    const pre = ctx.fleet.find((c) => c.id === ctx.carId);
    if (pre) Object.assign(raw, { 차량: carName(pre), '차량 번호': pre.id });
  }
  const wantsPick = intents.has('cheapest') || intents.has('premium');
  if (wantsPick && raw['차량 번호'] === undefined) {
    const fits = availableCars(ctx.fleet, raw.날짜 ?? state.날짜, raw['탑승 인원'] ?? state['탑승 인원']);
    const pick = intents.has('cheapest') ? fits[0] : fits.at(-1);
    if (pick) Object.assign(raw, { 차량: carName(pick), '차량 번호': pick.id });
  }
  const { updates, warnings } = reconcileUpdates(raw, state, ctx);
  const next = applyUpdates(state, updates);
  const chosen = next['차량 번호'] ? ctx.fleet.find((c) => c.id === next['차량 번호']) : undefined;
  const car = named ?? chosen;
  const triggers = new Set<UiTrigger>();
  const parts: string[] = [];

  const understood = Object.keys(updates).length > 0;
  if (intents.has('greeting') && !understood) parts.push(GREETING);
  const ack = describeUpdates(updates, today);
  if (ack) parts.push(ack);
  if (parsed.passengersOutOfRange !== undefined) parts.push(`탑승 인원은 ${MIN_PASSENGERS}명부터 ${MAX_PASSENGERS}명까지 가능합니다.`);
  parts.push(...warnings);
  if (parsed.carChoices?.length && updates['차량 번호'] === undefined) {
    parts.push(`해당 브랜드의 차량은 ${parsed.carChoices.map(carName).join(', ')}입니다. 어떤 차량으로 하시겠어요?`);
  }
  if (parsed.seats && !chosen) {
    const fits = availableCars(ctx.fleet, next.날짜, parsed.seats).map(carName);
    parts.push(fits.length ? `${parsed.seats}명 이상 탈 수 있는 차량: ${fits.join(', ')}` : `${parsed.seats}명 이상 탈 수 있는 차량이 없습니다.`);
  }
  const asksPrice = intents.has('price');
  if (intents.has('fleet') && !asksPrice) {
    parts.push(`보유 차량입니다.\n${ctx.fleet.map(fleetLine).join('\n')}`);
    triggers.add('fleet');
  }
  if (asksPrice) {
    parts.push(priceAnswer(car, parsed.hours, ctx.fleet));
    triggers.add('pricing');
  }
  if (intents.has('availability')) {
    parts.push(availabilityAnswer(car, next.날짜, ctx, today));
    triggers.add('fleet');
  }
  if (intents.has('my')) {
    parts.push('예약 신청 내역은 마이페이지에서 확인하실 수 있습니다.');
    triggers.add('my');
  }
  if (intents.has('help')) parts.push(GREETING);
  if (intents.has('thanks') && !understood) parts.push('감사합니다. 더 필요한 것이 있으면 언제든 말씀해 주세요.');
  if (!parts.length) parts.push('죄송합니다. 말씀을 정확히 이해하지 못했습니다.');

  const missing = nextMissing(next);
  let nextPrompt: string | null = null;
  if (missing) {
    nextPrompt = questionFor(missing, next, ctx);
    if (intents.has('confirm')) parts.push(`예약을 진행하려면 ${missing} 정보가 더 필요합니다.`);
    parts.push(nextPrompt);
    if (missing === '차량') triggers.add('fleet');
  } else if (understood || intents.has('confirm') || parts.length === 1) {
    parts.push("예약에 필요한 정보가 모두 준비되었습니다. '이 내용으로 예약하기'를 누르면 예약 신청서로 이동합니다. 결제와 최종 확인은 신청서에서 진행됩니다.");
    if (!next.목적) parts.push('이용 목적(공항 픽업, 비즈니스, 웨딩 등)이나 요청사항이 있으면 함께 알려주세요.');
  }
  if (!missing) triggers.add('reserve');
  return { text: parts.join('\n\n'), updates, ui_triggers: [...triggers], next_prompt: nextPrompt };
}
