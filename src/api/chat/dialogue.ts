import { INCLUDED_HOURS, MAX_PASSENGERS, MAX_TRIP_HOURS, MAX_WAYPOINTS, MIN_PASSENGERS, tripProblems } from '../../domain/butler';
import { lastBookableDay, MAX_ADVANCE_DAYS } from '../../domain/butler-calendar';
import { HOUR_MS, hoursText, koreaDate, koreaInstant, koreaTime } from '../../domain/dates';
import { won } from '../../domain/money';
import { availableCars, carName, carSeats, findCar, fleetLine, isReservedOn, quoteForHours, type ChatCar } from '../../domain/chat/fleet';
import { formatBookingValue, formatDateKo, formatTimeKo, SHOWN_KEYS } from '../../domain/chat/format';
import { durationKind, durationLine, endOf, endText, FULL_DAY_HOURS, FULL_DAY_START, fullDayHours, fullDayLine, fullDayLineIn, memoWithoutDuration, overtimeOf, spanHours, withFullDayLine } from '../../domain/chat/full-day';
import { parseMessage, type Intent, type Parsed } from './parser';
import { applyUpdates, BOOKING_KEYS, isEmptyState, nextMissing, REQUIRED_KEYS, type BookingKey, type BookingState, type BookingUpdates, type UiTrigger } from '../../domain/chat/state';
import { withParticle } from '../../domain/korean';

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
function questionFor(key: (typeof REQUIRED_KEYS)[number], state: BookingState, ctx: DialogueContext): string {
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
      const names = cars.map((c) => `${carName(c)}(${won(c.butler_fee)}~)`).join(', ');
      return `원하시는 차량을 알려주세요. 이용 가능한 차량: ${names}`;
    }
  }
}

interface Checked {
  updates: BookingUpdates;
  warnings: string[];
  /** Keys emptied because a day or time was refused (the warnings say so; the acknowledgement leaves them out). */
  refused: BookingKey[];
}

/**
 * What the booking API would refuse about a start on `day` at `time` (the whole day when no
 * time is known): tripProblems at `now`, the very bounds POST /butlers applies.
 */
function startProblem(day: string, time: string | undefined, now: Date): 'past' | 'far' | null {
  const start = koreaInstant(day, time ?? '23:59');
  if (!start || !tripProblems({ start, end: null }, now).some((p) => p.field === 'start_at')) return null;
  return day > lastBookableDay(koreaDate(now)) ? 'far' : 'past';
}

/**
 * Checks updates (the local parser's or an LLM's) against the calendar and the fleet, with the
 * booking API's bounds: no day or boarding time gone, at most 180 days ahead, a car named by id
 * or name that exists, is free that day and seats everyone. What fails is dropped and said; a
 * refused day or time also empties the one kept before (never kept silently), and a kept day or
 * time that has passed since (a conversation picked up later) is emptied and said.
 */
export function reconcileUpdates(raw: BookingUpdates, state: BookingState, ctx: DialogueContext, opts: { asking?: boolean } = {}): Checked {
  const updates: BookingUpdates = { ...raw };
  const warnings: string[] = [];
  const refused: BookingKey[] = [];
  const today = koreaDate(ctx.now);
  /** Drops a refused value; a value kept from before is emptied too, so the next question asks again. */
  const refuse = (key: '날짜' | '탑승 시간') => {
    if (state[key] !== undefined) {
      updates[key] = null;
      refused.push(key);
    } else delete updates[key];
  };

  const newDay = updates.날짜;
  if (newDay) {
    const problem = startProblem(newDay, undefined, ctx.now);
    const keptDay = state.날짜 && state.날짜 !== newDay && !startProblem(state.날짜, undefined, ctx.now) ? state.날짜 : null;
    if (problem === 'past' && opts.asking && keptDay) {
      // Only asked ("어제 예약 가능?"): answered, and the day agreed before stays.
      warnings.push(`${withParticle(formatDateKo(newDay, today), '은/는')} 이미 지난 날짜라 예약할 수 없습니다. 앞서 정한 ${withParticle(formatDateKo(keptDay, today), '은/는')} 그대로 두었습니다.`);
      delete updates.날짜;
    } else if (problem) {
      const old = state.날짜 && state.날짜 !== newDay ? ` 앞서 정한 ${formatDateKo(state.날짜, today)}도 비워 두었습니다.` : '';
      warnings.push(
        problem === 'past'
          ? `${withParticle(formatDateKo(newDay, today), '은/는')} 이미 지난 날짜입니다.${old} 오늘(${formatDateKo(today, today)}) 이후의 날짜를 알려주세요.`
          : `예약은 오늘부터 ${MAX_ADVANCE_DAYS}일 이내의 날짜만 가능합니다. (${formatDateKo(lastBookableDay(today), today)}까지)${old} 다른 날짜를 알려주세요.`,
      );
      refuse('날짜');
    }
  } else if (newDay === undefined && state.날짜 && startProblem(state.날짜, undefined, ctx.now) === 'past') {
    warnings.push(`앞서 정한 ${withParticle(formatDateKo(state.날짜, today), '은/는')} 이미 지난 날짜라 비워 두었습니다. 오늘 이후의 날짜를 알려주세요.`);
    refuse('날짜');
  }
  const day = updates.날짜 === undefined ? state.날짜 : (updates.날짜 ?? undefined);
  const newTime = updates['탑승 시간'];
  const time = newTime === undefined ? state['탑승 시간'] : (newTime ?? undefined);
  if (day && time && startProblem(day, time, ctx.now) === 'past') {
    const old = newTime && state['탑승 시간'] && state['탑승 시간'] !== newTime ? ` 앞서 정한 ${formatTimeKo(state['탑승 시간'])}도 비워 두었습니다.` : '';
    warnings.push(
      newTime
        ? `${formatDateKo(day, today)} ${withParticle(formatTimeKo(newTime), '은/는')} 이미 지난 시간입니다.${old} 지금(${formatTimeKo(koreaTime(ctx.now))}) 이후의 탑승 시간을 알려주세요.`
        : `${formatDateKo(day, today)} ${withParticle(formatTimeKo(time), '은/는')} 이미 지난 시간이라 탑승 시간을 비워 두었습니다. 지금(${formatTimeKo(koreaTime(ctx.now))}) 이후의 탑승 시간을 알려주세요.`,
    );
    refuse('탑승 시간');
  }
  keepFullDayLine(updates, state);

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
      `${withParticle(carName(car), '은/는')} ${formatDateKo(day!, today)}에 이미 예약되어 있습니다.` +
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
    warnings.push(`${withParticle(carName(car), '은/는')} 최대 ${carSeats(car)}명까지 탑승할 수 있습니다.` + (bigger.length ? ` ${passengers}명이 타실 수 있는 차량: ${bigger.join(', ')}` : ''));
  }
  return { updates, warnings, refused };
}

/**
 * The hours line in the kept memo (하루종일 이용 …, 이용 시간 …) follows a new boarding time and
 * survives a new memo (the chat keeps no end time elsewhere).
 */
function keepFullDayLine(updates: BookingUpdates, state: BookingState): void {
  const kept = fullDayLineIn(state.메모);
  if (!kept || updates.메모 === null) return;
  const memo = updates.메모 ?? state.메모;
  const hours = fullDayHours(memo) ?? fullDayHours(kept)!;
  const kind = durationKind(fullDayLineIn(memo) ? memo : kept)!;
  const start = updates['탑승 시간'] === undefined ? state['탑승 시간'] : updates['탑승 시간'];
  const line = start ? durationLine(kind, start, hours) : (fullDayLineIn(memo) ?? kept);
  const merged = withFullDayLine(memo, line);
  if (merged !== state.메모) updates.메모 = merged;
}

function describeUpdates(updates: BookingUpdates, today: string, skip: readonly BookingKey[] = [], state: BookingState = {}): string {
  const lines: string[] = [];
  for (const key of SHOWN_KEYS) {
    if (!(key in updates) || skip.includes(key)) continue;
    const value = updates[key];
    if (key === '메모' && typeof value === 'string' && fullDayLineIn(value)) {
      // The hours line is said as 이용 시간; the customer's own memo only when it changed.
      const line = fullDayLineIn(value)!;
      if (line !== fullDayLineIn(state.메모)) lines.push(`· 이용 시간: ${line.replace(/^(?:하루종일 이용|이용 시간): /, '')}`);
      const own = memoWithoutDuration(value);
      if (own !== memoWithoutDuration(state.메모)) lines.push(`· 메모: ${own || '삭제'}`);
      continue;
    }
    lines.push(`· ${key}: ${value === null ? '삭제' : formatBookingValue(key, value, today)}`);
  }
  return lines.length ? `다음과 같이 반영했습니다.\n${lines.join('\n')}` : '';
}

/** This trip's quote: the chosen car for the hours agreed (8 when none), in one sentence. */
function tripQuote(car: ChatCar, hours: number | undefined, state: BookingState, today: string): string {
  const h = hours && hours > 0 ? hours : INCLUDED_HOURS;
  const q = quoteForHours(car, h);
  const when = [state.날짜 ? formatDateKo(state.날짜, today) : '', state['탑승 시간'] ? `${formatTimeKo(state['탑승 시간'])}부터` : ''].filter(Boolean).join(' ');
  const what = [carName(car), when, hours && hours > 0 ? hoursText(h) : `${INCLUDED_HOURS}시간 기준`].filter(Boolean).join(', ');
  return `이번 일정의 예상 요금은 ${won(q.total)}입니다. (${what})`;
}

function priceAnswer(car: ChatCar | undefined, hours: number | undefined, fleet: ChatCar[], trip?: { state: BookingState; today: string }): string {
  const rule = '요금은 8시간 기준이며, 8시간을 넘으면 시작된 1시간마다 초과 요금이 붙습니다. (초과 요금이 없는 차량은 기본 요금의 10%)';
  if (car) {
    const q = quoteForHours(car, hours ?? 8);
    let text = trip ? `${tripQuote(car, hours, trip.state, trip.today)}\n` : '';
    text += `${withParticle(carName(car), '은/는')} 8시간 ${won(q.base)}, 초과 1시간당 ${won(q.rate)}입니다.`;
    if (hours && hours > 0) {
      text +=
        q.overtimeHours > 0
          ? ` ${hoursText(hours)} 이용 시 ${won(q.base)} + 초과 ${q.overtimeHours}시간 × ${won(q.rate)} = ${won(q.total)}입니다.`
          : ` ${hoursText(hours)} 이용은 기본 요금 ${won(q.total)}에 포함됩니다.`;
    }
    return `${text}\n${rule}`;
  }
  // No car yet: the cars that can take this trip (its day, its passengers) at its hours.
  const known = trip && (trip.state.날짜 || trip.state['탑승 인원']);
  const cars = known ? availableCars(fleet, trip.state.날짜, trip.state['탑승 인원']) : [...fleet].sort((a, b) => a.butler_fee - b.butler_fee);
  const lines = cars.map((c) => (hours && hours > 8 ? `${fleetLine(c)} → ${hoursText(hours)} ${won(quoteForHours(c, hours).total)}` : fleetLine(c)));
  if (known && cars.length) return `이번 일정에 이용 가능한 차량의 요금입니다. 차량을 정하시면 이 일정의 예상 요금을 알려드립니다.\n${lines.join('\n')}\n${rule}`;
  return `차량별 요금입니다.\n${lines.join('\n')}\n${rule}`;
}

function availabilityAnswer(car: ChatCar | undefined, day: string | undefined, ctx: DialogueContext, today: string): string {
  if (car) {
    const taken = car.butler_reservated_dates.filter((d) => d >= today).slice(0, 10);
    if (day) return isReservedOn(car, day) ? `${withParticle(carName(car), '은/는')} ${formatDateKo(day, today)}에 이미 예약되어 있습니다.` : `${withParticle(carName(car), '은/는')} ${formatDateKo(day, today)}에 예약 가능합니다.`;
    return taken.length ? `${carName(car)}의 예약이 찬 날: ${taken.map((d) => formatDateKo(d, today)).join(', ')}` : `${withParticle(carName(car), '은/는')} 앞으로 예약된 날이 없습니다.`;
  }
  if (day) {
    const free = availableCars(ctx.fleet, day).map(carName);
    return free.length ? `${formatDateKo(day, today)}에 이용 가능한 차량: ${free.join(', ')}` : `${formatDateKo(day, today)}에는 모든 차량이 예약되어 있습니다.`;
  }
  return '날짜를 알려주시면 그날 이용 가능한 차량을 알려드립니다. 차량별 예약 현황은 차량 페이지의 달력에서도 볼 수 있습니다.';
}

/**
 * Where a full day starts when the message gives no time and none is kept: 09:00, or on today
 * once 09:00 has gone the next whole hour; null when today has no hour left.
 */
function fullDayStart(day: string | undefined, now: Date): string | null {
  if (day !== koreaDate(now) || koreaTime(now) < FULL_DAY_START) return FULL_DAY_START;
  const hour = Number(koreaTime(now).slice(0, 2)) + 1;
  return hour < 24 ? `${String(hour).padStart(2, '0')}:00` : null;
}

/** "…으로" after a final consonant (분), "…로" otherwise (시). */
const ro = (word: string) => `${word}${/분$/.test(word) ? '으로' : '로'}`;

/** What the assistant says of a full-day booking: the hours it set, what they cost, and that the form's end time follows. */
function fullDaySentence(start: string, hours: number, car: ChatCar | undefined, withPrice: boolean): string {
  const until = endText(start, hours);
  let text = `하루종일 이용으로 ${formatTimeKo(start)}부터 ${until}까지 ${hoursText(hours)} 일정을 잡았습니다.`;
  if (withPrice) {
    const q = car ? quoteForHours(car, hours) : null;
    if (hours <= INCLUDED_HOURS) text += ' 8시간 기본 요금에 포함됩니다.';
    else if (q) text += ` ${carName(car!)} 기준 ${won(q.base)} + 초과 ${q.overtimeHours}시간 × ${won(q.rate)} = ${won(q.total)}입니다.`;
    else text += ` 요금은 8시간 기본 요금에 초과 ${overtimeOf(hours)}시간 요금이 더해집니다.`;
  }
  text += ` 예약 신청서의 도착 시간도 ${ro(until)} 채워 드립니다.`;
  return text;
}

/**
 * A full-day booking asked for in this message: its hours, written into the memo (the start is
 * already the boarding time). An end beyond the API's longest trip is refused with its message.
 */
function planFullDay(fullDay: NonNullable<Parsed['fullDay']>, parsed: Parsed, updates: BookingUpdates, state: BookingState, now: Date): { hours: number; start: string } | { problem: string } | null {
  const start = updates['탑승 시간'] === undefined ? state['탑승 시간'] : updates['탑승 시간'];
  if (!start) return null;
  const hours = fullDay.end ? spanHours(start, fullDay.end) : parsed.hours && parsed.hours > 0 ? parsed.hours : FULL_DAY_HOURS;
  const day = (updates.날짜 === undefined ? state.날짜 : updates.날짜) ?? koreaDate(now);
  const startAt = koreaInstant(day, start);
  const problem = startAt ? tripProblems({ start: startAt, end: new Date(startAt.getTime() + hours * HOUR_MS) }, now).find((p) => p.field === 'end_at') : undefined;
  if (problem) return { problem: problem.message };
  updates.메모 = withFullDayLine(updates.메모 === undefined ? state.메모 : updates.메모, fullDayLine(start, hours));
  return { hours, start };
}

/**
 * Hours the customer gave (3시간, 오후 2시부터 5시까지), written into the memo as the hours line;
 * the start is the boarding time when one is known (the line follows it later). Hours beyond
 * the API's longest trip are refused with its message.
 */
function planHours(parsed: Parsed, updates: BookingUpdates, state: BookingState, now: Date): { hours: number; start?: string } | { problem: string } | null {
  const start = (updates['탑승 시간'] === undefined ? state['탑승 시간'] : updates['탑승 시간']) ?? undefined;
  const hours = parsed.until && start ? spanHours(start, parsed.until) : parsed.hours;
  if (!hours || hours <= 0) return null;
  if (hours > MAX_TRIP_HOURS) return { problem: `이용 시간은 최대 ${MAX_TRIP_HOURS}시간까지 예약할 수 있습니다.` };
  if (start) {
    const day = (updates.날짜 === undefined ? state.날짜 : updates.날짜) ?? koreaDate(now);
    const startAt = koreaInstant(day, start);
    const problem = startAt ? tripProblems({ start: startAt, end: new Date(startAt.getTime() + hours * HOUR_MS) }, now).find((p) => p.field === 'end_at') : undefined;
    if (problem) return { problem: problem.message };
  }
  updates.메모 = withFullDayLine(updates.메모 === undefined ? state.메모 : updates.메모, durationLine('hours', start, hours));
  return { hours, start };
}

/** What the assistant says of hours it set, and that the form's end time follows. */
function hoursSentence(start: string | undefined, hours: number): string {
  if (!start) return `이용 시간은 ${hoursText(hours)}으로 잡았습니다. 탑승 시간을 알려주시면 도착 시간도 맞춰 드립니다.`;
  const until = endText(start, hours);
  return `이용 시간은 ${formatTimeKo(start)}부터 ${until}까지 ${hoursText(hours)}으로 잡았습니다. 예약 신청서의 도착 시간도 ${ro(until)} 채워 드립니다.`;
}

const GREETING = '안녕하세요, LUXE 의전 예약 도우미입니다. 날짜와 시간, 출발지와 목적지, 인원, 원하시는 차량을 편하게 말씀해 주세요. (예: 내일 오후 2시 인천공항에서 강남역까지 3명)';

/** Starts over: every key removed. A cancel says where a request already sent is cancelled. */
function resetReply(ctx: DialogueContext, cancel = false): Reply {
  const updates = Object.fromEntries(BOOKING_KEYS.map((k) => [k, null])) as BookingUpdates;
  const question = questionFor('날짜', {}, ctx);
  const text = cancel
    ? `진행 중이던 예약 내용을 모두 취소하고 지웠습니다. 이미 신청하신 예약의 취소는 마이페이지에서 하실 수 있습니다.\n새로 예약하시려면 ${question}`
    : `예약 정보를 모두 지우고 처음부터 다시 시작합니다.\n${question}`;
  return { text, updates, ui_triggers: cancel ? ['my'] : [], next_prompt: question };
}

/** What the assistant adds when a person is asked for (the route tells staff; src/api/chat/handoff.ts). */
const HANDOVER_TEXT = '지금까지 말씀하신 예약 정보는 그대로 두었고 상담원에게 함께 전달됩니다. 기다리시는 동안 이어서 말씀하시면 계속 반영하겠습니다.';
const HANDOVER_EMPTY_TEXT = '상담원을 기다리시는 동안 원하시는 날짜와 장소를 말씀해 주시면 함께 전달하겠습니다.';

/**
 * The local assistant's answer to one message: reads it, checks the result against the
 * fleet and the calendar, answers fleet, price and availability questions from the real
 * catalogue, and asks for the first missing detail (one question at a time).
 */
export function respond(message: string, state: BookingState, ctx: DialogueContext): Reply {
  const today = koreaDate(ctx.now);
  const parsed = parseMessage(message, { today, fleet: ctx.fleet, expecting: nextMissing(state), agreed: state.날짜 });
  const intents = new Set<Intent>(parsed.intents);
  if (intents.has('cancel')) return resetReply(ctx, true);
  if (intents.has('reset')) return resetReply(ctx);

  const raw: BookingUpdates = { ...parsed.updates };
  // "광화문도 들러줘": a waypoint named in passing joins the ones agreed.
  if (parsed.addsWaypoints && raw.경유지 && state.경유지?.length) raw.경유지 = [...new Set([...state.경유지, ...raw.경유지])].slice(0, MAX_WAYPOINTS);
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
  // 하루종일: a full day from the time said, the time kept, or 09:00 (not for a price question alone: "하루종일 쓰면 얼마예요?").
  const fullDay = parsed.fullDay && !(onlyAsking && Object.keys(parsed.updates).length === 0) ? parsed.fullDay : undefined;
  let noHourLeft = false;
  const fullDayOn = raw.날짜 ?? state.날짜;
  const keptGone = !!state['탑승 시간'] && fullDayOn === today && state['탑승 시간'] <= koreaTime(ctx.now);
  // A time chosen earlier (오후 2시) whose whole day would run past midnight: 하루종일 means that day's
  // day, so it starts at the full day's start instead of running 14:00 to 02:00 the next day.
  const keptPastMidnight = !!fullDay && !fullDay.end && !!state['탑승 시간'] && endOf(state['탑승 시간'], parsed.hours && parsed.hours > 0 ? parsed.hours : FULL_DAY_HOURS).nextDay;
  if (fullDay && raw['탑승 시간'] === undefined && (!state['탑승 시간'] || keptGone || keptPastMidnight)) {
    const start = fullDayStart(fullDayOn, ctx.now);
    if (start) raw['탑승 시간'] = start;
    else noHourLeft = true;
  }
  const { updates, warnings, refused } = reconcileUpdates(raw, state, ctx, { asking: intents.has('availability') || intents.has('question') });
  // Hours said (3시간, 세 시간, 3h, 오후 2시부터 5시까지): kept for the form's end time (not for "10시간 쓰면 얼마예요?" alone).
  const saysHours = !fullDay && (parsed.until !== undefined || (parsed.hours !== undefined && !(onlyAsking && Object.keys(parsed.updates).length === 0)));
  const plan = fullDay ? planFullDay(fullDay, parsed, updates, state, ctx.now) : saysHours ? planHours(parsed, updates, state, ctx.now) : null;
  if (state.날짜 && typeof updates.날짜 === 'string' && updates.날짜 !== state.날짜) {
    warnings.unshift(`날짜를 ${formatDateKo(state.날짜, today)}에서 ${withParticle(formatDateKo(updates.날짜, today), '으로/로')} 변경했습니다. 바뀐 날짜가 맞는지 확인해 주세요.`);
  }
  const next = applyUpdates(state, updates);
  const chosen = next['차량 번호'] ? ctx.fleet.find((c) => c.id === next['차량 번호']) : undefined;
  const car = named ?? chosen;
  const triggers = new Set<UiTrigger>();
  const parts: string[] = [];
  const asksPrice = intents.has('price');

  const understood = Object.keys(updates).some((k) => !refused.includes(k as BookingKey));
  if (intents.has('greeting') && !understood) parts.push(GREETING);
  const ack = describeUpdates(updates, today, refused, state);
  if (ack) parts.push(ack);
  if (parsed.passengersOutOfRange !== undefined) parts.push(`탑승 인원은 ${MIN_PASSENGERS}명부터 ${MAX_PASSENGERS}명까지 가능합니다.`);
  parts.push(...warnings);
  if (noHourLeft) parts.push('오늘은 하루종일 이용할 시간이 남아 있지 않습니다. 다른 날짜를 알려주세요.');
  if (plan && 'problem' in plan) parts.push(plan.problem);
  else if (plan && fullDay && plan.start) parts.push(fullDaySentence(plan.start, plan.hours, chosen, !asksPrice));
  else if (plan) parts.push(hoursSentence(plan.start, plan.hours));
  if (parsed.carChoices?.length && updates['차량 번호'] === undefined) {
    parts.push(`해당 브랜드의 차량은 ${parsed.carChoices.map(carName).join(', ')}입니다. 어떤 차량으로 하시겠어요?`);
  }
  if (parsed.seats && !chosen) {
    const fits = availableCars(ctx.fleet, next.날짜, parsed.seats).map(carName);
    parts.push(fits.length ? `${parsed.seats}명 이상 탈 수 있는 차량: ${fits.join(', ')}` : `${parsed.seats}명 이상 탈 수 있는 차량이 없습니다.`);
  }
  if (intents.has('fleet') && !asksPrice) {
    parts.push(`보유 차량입니다.\n${ctx.fleet.map(fleetLine).join('\n')}`);
    triggers.add('fleet');
  }
  if (asksPrice) {
    const hours = parsed.hours ?? (plan && 'hours' in plan ? plan.hours : parsed.fullDay ? FULL_DAY_HOURS : (fullDayHours(next.메모) ?? undefined));
    // The car chosen for this trip gets this trip's quote; a car only asked about, its prices.
    parts.push(priceAnswer(car, hours, ctx.fleet, car && car !== chosen ? undefined : { state: next, today }));
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
  if (intents.has('person')) parts.push(isEmptyState(next) ? HANDOVER_EMPTY_TEXT : HANDOVER_TEXT);
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
