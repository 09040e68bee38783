import { MAX_PASSENGERS } from '../../domain/butler';
import { carName, findCar, type ChatCar } from '../../domain/chat/fleet';
import { koreanNumber, NATIVE_SOURCE } from './numbers';
import { findPlaces, stripParticle } from './places';
import type { BookingKey, BookingUpdates } from '../../domain/chat/state';
import { findFullDay } from '../../domain/chat/full-day';
import { findDate, findHours, findStartEnd, findTime, findTimeSpan, HOUR_WORDS, mask, toHour24, type Found } from './when';

/** What a message asks for beyond booking data. */
export type Intent = 'reset' | 'cancel' | 'person' | 'fleet' | 'price' | 'availability' | 'confirm' | 'my' | 'greeting' | 'thanks' | 'help' | 'cheapest' | 'premium' | 'question';

export interface ParseContext {
  /** Today in Korea, YYYY-MM-DD. */
  today: string;
  fleet: ChatCar[];
  /** The key the assistant asked for last: a bare answer ("김포공항", "3") fills it. */
  expecting?: BookingKey | null;
  /** The day already agreed (YYYY-MM-DD): a bare weekday or "하루 미뤄" counts from it. */
  agreed?: string;
}

export interface Parsed {
  /** Booking values found in the message (not yet checked against the calendar or the fleet's days). */
  updates: BookingUpdates;
  intents: Intent[];
  /** A brand with several cars was named; the user must pick one. */
  carChoices?: ChatCar[];
  /** A passenger count outside 1–20 was given. */
  passengersOutOfRange?: number;
  /** Hours of use mentioned (10시간), for price answers. */
  hours?: number;
  /** Seats asked for (7인승). */
  seats?: number;
  /** The whole day was asked for (하루종일, 종일, 온종일 …), with the end time when one was said (밤 9시까지), HH:MM. */
  fullDay?: { end?: string };
  /** An end time said with the start ("오후 2시부터 5시까지"), HH:MM. */
  until?: string;
  /** The waypoints were added in passing ("코엑스도 들러줘"), not listed as the whole set (경유지는 …). */
  addsWaypoints?: boolean;
}

/** A visitor asking for a person (상담원 연결, 직원이랑 통화, 사람과 이야기 …), not a note for the driver. */
export const ASKS_FOR_PERSON =
  /(상담원|상담사|직원|매니저|사람)\s*(?:이랑|하고|과|와|랑|분과|분이랑)?\s*(?:연결|통화|상담|얘기|이야기|대화|불러|바꿔)|상담\s*(?:연결|요청|원)|상담사|상담원/;

/** "취소", "예약 취소해주세요", "다 취소해줘": the booking being made is dropped (a sent request is cancelled on 마이페이지). */
const CANCEL = /^\s*(?:아\s*|그냥\s*|음\s*)?(?:이\s*)?(?:예약\s*)?(?:다|전부|모두|전체|몽땅)?\s*(?:취소|캔슬|없던\s*(?:걸|것)\s*으?로)\s*(?:할게요|할께요|할게|할래요|할래|해\s*주세요|해\s*주새요|해\s*줘|해\s*주라|해요|요|합니다|하겠습니다|하고\s*싶어요|해주십시오)?\s*[.!~]*\s*$/;

const INTENTS: Array<[Intent, RegExp]> = [
  ['cancel', CANCEL],
  ['person', ASKS_FOR_PERSON],
  ['reset', /처음부터|처음\s*으로\s*(?:돌아|다시)|초기화|새로\s*시작|다시\s*시작|리셋|대화\s*(?:삭제|지우)|전부\s*(?:지워|취소)/],
  ['fleet', /(?:어떤|무슨|보유|이용\s*가능한|가능한|있는|다른)\s*(?:차|차량|모델)|차량\s*(?:목록|리스트|종류|라인업|보여|알려)|라인업|차\s*(?:뭐|뭘|종류)|차종|어떤\s*차/],
  ['price', /가격|요금|얼마|비용|견적|금액|초과\s*(?:시간|요금)|추가\s*요금|오버\s*타임|시간당|요금제/],
  ['availability', /예약\s*(?:된|가능|되어|돼)|가능한\s*(?:날|날짜|일정)|빈\s*(?:날|차)|(?:일정|날짜)\s*(?:확인|있)|언제\s*(?:가능|비어|돼)|비어\s*있/],
  ['confirm', /예약(?:할게|해\s*주|해줘|하고\s*싶|진행|하기|할래|하겠|합니다)|이대로|그대로\s*(?:진행|예약)|진행해\s*주|진행할게|확정/],
  ['my', /내\s*예약|예약\s*(?:내역|확인|조회)|마이\s*페이지|신청\s*내역/],
  ['greeting', /^(?:안녕|하이|헬로|hello|hi\b|반갑)/i],
  ['thanks', /감사|고마워|고맙|땡큐/],
  ['help', /도움말|사용법|어떻게\s*(?:예약|이용|하)|뭘\s*할\s*수|무엇을\s*할\s*수|도와/],
  ['cheapest', /(?:제일|가장|젤)\s*(?:싼|저렴|착한)|저렴한\s*(?:차|걸|것)|싼\s*(?:차|걸)/],
  ['premium', /(?:제일|가장|젤)\s*(?:좋은|비싼|고급|럭셔리)|최고급|플래그십/],
  ['question', /\?|뭐|어떤|얼마|언제|어디|몇|가능한가|되나요|있나요|있어요\?|알려|궁금/],
];

const PURPOSES: Array<[string, RegExp]> = [
  ['공항 픽업', /(?:공항|입국).{0,12}(?:픽업|마중|영접|모시러)|(?:픽업|마중|영접).{0,12}(?:공항|입국)|입국/],
  ['공항 샌딩', /(?:공항|출국).{0,12}(?:샌딩|배웅|바래다)|샌딩|출국/],
  ['웨딩', /웨딩|결혼식|신랑|신부|혼례|예식/],
  ['비즈니스', /비즈니스|미팅|출장|회의|바이어|거래처|접대|임원|기업\s*의전|VIP/i],
  ['골프', /골프|라운딩|컨트리\s*클럽|(?<![a-z])CC(?![a-z])/i],
  ['가족 행사', /상견례|돌잔치|칠순|팔순|환갑|고희|가족\s*(?:행사|모임)|졸업식|입학식/],
  ['기념일', /기념일|생일|프로포즈|프러포즈|데이트/],
  ['관광', /관광|투어|여행/],
  ['행사', /행사|이벤트|시상식|파티|갈라|레드\s*카펫|론칭|런칭|컨퍼런스|세미나|전시회/],
  ['촬영', /촬영|화보|뮤직\s*비디오|뮤비|광고/],
  ['장례', /장례|발인/],
];

/** The trip's purpose: a label written out (목적은 …) or the first purpose word, as one of the shop's labels. */
function findPurpose(text: string): string | null {
  const labelled = text.match(/(?:이용\s*)?목적(?!지)\s*(?:은|는|:|=|이)?\s*([^,.\n!?]+)/);
  const scope = labelled ? labelled[1] : text;
  let best: { label: string; at: number } | null = null;
  for (const [label, re] of PURPOSES) {
    const m = re.exec(scope);
    if (m && (!best || m.index < best.at)) best = { label, at: m.index };
  }
  if (best) return best.label;
  if (labelled) {
    const v = labelled[1].replace(/\s*(?:이에요|예요|입니다|이요|이고|으로|로|요)\s*$/, '').trim();
    return v && v.length <= 100 ? v : null;
  }
  return null;
}

const COUNT_PATTERNS: RegExp[] = [
  new RegExp(`(?:탑승\\s*)?인원\\s*(?:은|는|:|=|이)?\\s*(\\d{1,3}|${NATIVE_SOURCE})\\s*(?:명|분|인)?`, 'g'),
  /(?<!\d)(\d{1,3})\s*(?:명|인(?!승|분|용|치|실|석|기|데|가|지|천|터|도|증))/g,
  // Native numbers count people with 분 too (minutes take Sino-Korean: 오 분).
  new RegExp(`(?<![가-힣])(${NATIVE_SOURCE})\\s*(?:명|분)`, 'g'),
  /(?<!\d)(\d{1,2})\s*분(?=이|께서|\s*(?:탑승|모시|이서))/g,
  /(혼자)(?=\s*(?:타|탑승|이동|가|갑|예요|이에요|입니다|요|$))|(?<![가-힣])(둘|셋|넷|다섯|여섯|일곱|여덟)(?:이서|이(?=\s*(?:탑승|이동|가요|갑니다))|(?=\s*탑승))/g,
];

/** Passenger count (3명, 세 명, 인원 4, 둘이서, 혼자, 성인 2명 아이 1명 → 3) and the text with counts masked. */
function findPassengers(text: string): { count: number | null; rest: string } {
  let rest = text;
  const found: Found<number>[] = [];
  for (const re of COUNT_PATTERNS) {
    re.lastIndex = 0;
    const scan = rest;
    for (let m = re.exec(scan); m; m = re.exec(scan)) {
      const word = m[1] ?? m[2];
      const n = word === '혼자' ? 1 : koreanNumber(word);
      if (n === null) continue;
      found.push({ value: n, index: m.index, length: m[0].length });
      rest = mask(rest, m.index, m[0].length);
    }
  }
  if (!found.length) return { count: null, rest };
  found.sort((a, b) => a.index - b.index);
  if (found.length > 1 && /성인|어른|아이|어린이|유아|아기|학생|소아|청소년/.test(text) && !/말고|아니고|아니라/.test(text)) {
    return { count: found.reduce((s, f) => s + f.value, 0), rest };
  }
  for (let i = 1; i < found.length; i++) {
    if (/말고|아니고|아니라|대신/.test(text.slice(found[i - 1].index, found[i].index))) return { count: found[i].value, rest };
  }
  return { count: found[0].value, rest };
}

const MEMO_LABEL = /(?:메모|요청\s*사항|특이\s*사항|전달\s*사항|참고\s*사항|기타\s*사항|추가\s*요청)\s*(?:은|는|:|=|으로|로)?\s*/;
const MEMO_WORDS = /준비|챙겨|비치|카시트|생수|꽃다발|피켓|네임\s*보드|이름표|조용히|금연|반려|애견|강아지|캐리어|트렁크|짐이|짐은|휠체어|유모차|의전\s*매너|정장|복장/;

/** Requests for the driver written out: 메모: …, 요청사항은 … (the rest of the message). */
function findMemoLabel(text: string): { memo: string | null; rest: string } {
  const labelled = MEMO_LABEL.exec(text);
  if (!labelled) return { memo: null, rest: text };
  const start = labelled.index + labelled[0].length;
  const memo = text.slice(start).trim().slice(0, 500);
  return { memo: memo || null, rest: text.slice(0, labelled.index) + '\u0001'.repeat(text.length - labelled.index) };
}

/** A clause about luggage, water, a name board … in a message whose dates and times are masked. */
function findMemoClause(text: string): { memo: string | null; rest: string } {
  const word = MEMO_WORDS.exec(text);
  if (!word) return { memo: null, rest: text };
  const before = text.slice(0, word.index);
  // eslint-disable-next-line no-control-regex -- \u0001 marks text already taken by an earlier rule
  const starts = [...before.matchAll(/[.!?\n,]|\u0001+|(?:는데|인데|하고|이고|그리고)\s/g)].map((m) => m.index + m[0].length);
  const start = starts.length ? Math.max(...starts) : 0;
  const endRel = text.slice(word.index).search(/[.!?\n]/);
  const end = endRel < 0 ? text.length : word.index + endRel;
  const memo = text
    .slice(start, end)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:에|에서|까지|은|는|이|가|을|를|도)\s+/, '')
    .slice(0, 500);
  return { memo: memo || null, rest: text.slice(0, start) + '\u0001'.repeat(end - start) + text.slice(end) };
}

const MANAGER = /(?:담당자|예약자|연락\s*받(?:으실|을)\s*분|탑승자\s*(?:이름|성함)|성함)\s*(?:은|는|:|=|이)?\s*([가-힣]{2,4}|[A-Za-z][A-Za-z ]{1,30}?)(?:\s*(?:님|씨))?(?:\s*\(?\s*(01[016789][-\s]?\d{3,4}[-\s]?\d{4})\)?)?(?=$|[\s,.!?]|이고|이에요|입니다|예요|이요)/;

/** The contact person (담당자는 김민수 010-1234-5678). */
function findManager(text: string): { manager: string | null; rest: string } {
  const m = MANAGER.exec(text);
  if (!m) return { manager: null, rest: text };
  const manager = m[2] ? `${m[1].trim()} ${m[2]}` : m[1].trim();
  return { manager, rest: mask(text, m.index, m[0].length) };
}

const QUESTION = /\?|뭐|어떤|얼마|언제|어디|몇|가능|되나요|있나요|알려|궁금|할까요|인가요/;

/** A short bare answer as a place (the reply to "어디에서 출발하시나요?"). */
function bareAnswer(text: string): string | null {
  // eslint-disable-next-line no-control-regex -- \u0001 marks text already taken by an earlier rule
  const t = text.replace(/\u0001+/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t || t.length > 40 || QUESTION.test(t)) return null;
  if (/^(?:네|예|아니|아뇨|없|괜찮|좋아|오케이|ok)/i.test(t)) return null;
  const place = stripParticle(t.replace(/(?:이요|이에요|예요|입니다|요)$/, ''));
  if (!place || /^[\d\s]+$/.test(place) || place.split(' ').length > 6) return null;
  return place;
}

/**
 * Reads one Korean message into booking values: date, boarding time, passengers, car,
 * purpose, memo, contact, places and waypoints, plus what else it asks for. Pure and
 * deterministic: `ctx.today` stands for the clock.
 */
export function parseMessage(message: string, ctx: ParseContext): Parsed {
  const text = message.normalize('NFC').replace(/[～〜]/g, '~').trim();
  const intents = INTENTS.filter(([, re]) => re.test(text)).map(([i]) => i);
  const updates: BookingUpdates = {};
  const out: Parsed = { updates, intents };

  const labelled = findMemoLabel(text);
  const fullDay = findFullDay(text);
  if (fullDay) out.fullDay = {};
  const manager = findManager(fullDay ? mask(labelled.rest, fullDay.index, fullDay.length) : labelled.rest);
  if (manager.manager) updates.담당자 = manager.manager;

  const date = findDate(manager.rest, ctx.today, ctx.agreed);
  if (date.date) updates.날짜 = date.date.value;
  // A full day may say until when (하루종일, 밤 9시까지); two times said together are a start and an
  // end (오후 2시부터 5시까지); otherwise a time is the boarding time.
  const span = fullDay ? findTimeSpan(date.rest) : null;
  const startEnd = fullDay ? null : findStartEnd(date.rest);
  const time = span ? { time: span.start, rest: span.rest } : startEnd ? { time: startEnd.start, rest: startEnd.rest } : findTime(date.rest);
  if (time.time) updates['탑승 시간'] = time.time.value;
  if (span?.end && out.fullDay) out.fullDay.end = span.end.value;
  if (startEnd) out.until = startEnd.end.value;
  const clause = findMemoClause(time.rest);
  const memo = [labelled.memo, clause.memo].filter(Boolean).join(' / ');
  if (memo) updates.메모 = memo.slice(0, 500);

  const hours = findHours(text);
  if (hours !== null) out.hours = hours;
  let rest = clause.rest
    .replace(new RegExp(`(?:\\d{1,2}(?:\\.\\d+)?|${HOUR_WORDS})\\s*시간(?:\\s*\\d{1,2}\\s*분|\\s*반)?`, 'g'), (m) => '\u0001'.repeat(m.length))
    .replace(/(?<![\d.])\d{1,2}(?:\.\d+)?\s*(?:h|hr|hrs|hours?)(?![a-z])/gi, (m) => '\u0001'.repeat(m.length));
  const seats = rest.match(/(\d{1,2})\s*인승/);
  if (seats) out.seats = Number(seats[1]);
  rest = rest.replace(/\d{1,2}\s*인승/g, (m) => '\u0001'.repeat(m.length));

  const passengers = findPassengers(rest);
  rest = passengers.rest;
  let count = passengers.count;
  if (count === null && ctx.expecting === '탑승 인원') {
    const bare = text.match(new RegExp(`^\\s*(\\d{1,3}|${NATIVE_SOURCE})\\s*(?:명|분|인)?\\s*(?:이요|이에요|입니다|요)?\\s*[.!]?\\s*$`));
    if (bare) count = koreanNumber(bare[1]);
  }
  if (count !== null) {
    if (count >= 1 && count <= MAX_PASSENGERS) updates['탑승 인원'] = count;
    else out.passengersOutOfRange = count;
  }
  if (!updates['탑승 시간'] && ctx.expecting === '탑승 시간') {
    const bare = text.match(/^\s*(\d{1,2})\s*(?:요)?\s*$/);
    const h = bare ? toHour24(Number(bare[1]), undefined) : null;
    if (h !== null && h < 24) updates['탑승 시간'] = `${String(h).padStart(2, '0')}:00`;
  }

  const car = findCar(rest, ctx.fleet);
  if (car) {
    rest = mask(rest, car.index, car.length);
    if (car.car) {
      updates.차량 = carName(car.car);
      updates['차량 번호'] = car.car.id;
    } else if (car.choices) out.carChoices = car.choices;
  }

  const purpose = findPurpose(text);
  if (purpose) updates.목적 = purpose;

  const places = findPlaces(rest);
  if (places.origin) updates.출발지 = places.origin;
  if (places.destination) updates.목적지 = places.destination;
  if (places.waypoints?.length) {
    updates.경유지 = places.waypoints;
    if (places.inPassing) out.addsWaypoints = true;
  } else if (places.clearWaypoints) updates.경유지 = null;

  const nothingElse = Object.keys(updates).length === 0 && !out.carChoices && !out.fullDay && out.hours === undefined && !intents.some((i) => i !== 'question');
  if (nothingElse && (ctx.expecting === '출발지' || ctx.expecting === '목적지')) {
    const place = bareAnswer(rest);
    if (place) updates[ctx.expecting] = place;
  }
  return out;
}
