import { describe, expect, it } from 'vitest';
import { prefillFromSearch, prefillToSearch } from '../../../src/domain/butler-prefill';
import { tripProblems } from '../../../src/domain/butler';
import { reconcileUpdates, respond, type DialogueContext } from '../../../src/api/chat/dialogue';
import { buildLlmMessages, FenceSplitter, parseLlmBlock } from '../../../src/api/chat/llm-protocol';
import { stateToPrefill } from '../../../src/domain/chat/prefill';
import { ChatRequestSchema } from '../../../src/api/chat/schemas';
import { applyUpdates, BOOKING_KEYS, sanitizeState, type BookingState } from '../../../src/domain/chat/state';
import { koreaInstant } from '../../../src/domain/dates';
import { FLEET, NOW } from './chat-fleet';

const ctx: DialogueContext = { now: NOW, fleet: FLEET };

/** Plays a conversation and returns every reply with the state after it. */
function talk(messages: string[], start: BookingState = {}, c: DialogueContext = ctx) {
  let state = start;
  return messages.map((m) => {
    const reply = respond(m, state, c);
    state = applyUpdates(state, reply.updates);
    return { ...reply, state };
  });
}

describe('the local dialogue', () => {
  it('asks for one missing detail at a time, in order, until the booking is complete', () => {
    const turns = talk(['안녕하세요', '다음 주 화요일', '오전 10시 반', '롯데호텔 서울', '인천공항 제1터미널', '두 명', 'G90으로 해주세요']);
    expect(turns.map((t) => t.next_prompt)).toEqual([
      '언제 이용하실 예정인가요? (예: 내일, 다음 주 금요일, 12월 3일)',
      '몇 시에 탑승하실 예정인가요? (예: 오전 9시, 오후 2시 반, 14:30)',
      '어디에서 출발하시나요? (예: 인천공항 제1터미널, 강남역)',
      '목적지는 어디인가요?',
      '탑승 인원은 몇 명인가요?',
      expect.stringMatching(/^원하시는 차량을 알려주세요\. 이용 가능한 차량: Kia Carnival Hi-Limousine\(450,000원~\), Genesis G90\(550,000원~\)/),
      null,
    ]);
    expect(turns[0].text).toMatch(/^안녕하세요, LUXE 의전 예약 도우미입니다\./);
    expect(turns.at(-1)!.state).toEqual({
      날짜: '2026-03-17',
      '탑승 시간': '10:30',
      출발지: '롯데호텔 서울',
      목적지: '인천공항 제1터미널',
      '탑승 인원': 2,
      차량: 'Genesis G90',
      '차량 번호': 9,
    });
    expect(turns.at(-1)!.ui_triggers).toEqual(['reserve']);
    expect(turns.at(-1)!.text).toContain("'이 내용으로 예약하기'를 누르면 예약 신청서로 이동합니다.");
    expect(turns.at(-1)!.text).toContain('이용 목적(공항 픽업, 비즈니스, 웨딩 등)');
    expect(turns[5].ui_triggers).toEqual(['fleet']);
  });

  it('acknowledges what it understood, line by line', () => {
    const [t] = talk(['내일 오후 2시 반에 인천공항에서 강남역까지 3명이요']);
    expect(t.text.split('\n\n')[0]).toBe('다음과 같이 반영했습니다.\n· 날짜: 3월 12일 (목)\n· 탑승 시간: 오후 2시 30분\n· 출발지: 인천공항\n· 목적지: 강남역\n· 탑승 인원: 3명');
  });

  it('refuses past days, days beyond 180 days and a time already gone today', () => {
    const [past] = talk(['2026-03-01']);
    expect(past.updates).toEqual({});
    expect(past.text).toContain('3월 1일 (일)은 이미 지난 날짜입니다.');
    const [far] = talk(['2027-03-01']);
    expect(far.updates).toEqual({});
    expect(far.text).toContain('예약은 오늘부터 180일 이내의 날짜만 가능합니다.');
    const [gone] = talk(['오늘 아침 9시']);
    expect(gone.updates).toEqual({ 날짜: '2026-03-11' });
    expect(gone.text).toContain('이미 지난 시간입니다.');
  });

  it('does not choose a car on one of its reserved days, and names the free ones', () => {
    const [t] = talk(['마이바흐로 할게요'], { 날짜: '2026-03-13' });
    expect(t.updates).toEqual({});
    expect(t.text).toContain('Mercedes Benz Maybach S-Class는 3월 13일 (금)에 이미 예약되어 있습니다. 같은 날 이용 가능한 차량: Genesis G90, BMW i7');
    expect(t.text).not.toMatch(/이용 가능한 차량: [^\n]*Carnival/);
  });

  it('lets go of a chosen car when the new day is one of its reserved days', () => {
    const [t] = talk(['이번 주 토요일로 바꿔주세요'], { 차량: 'Rolls-Royce Ghost', '차량 번호': 3 });
    expect(t.updates).toEqual({ 날짜: '2026-03-14', 차량: null, '차량 번호': null });
    expect(t.state).toEqual({ 날짜: '2026-03-14' });
    expect(t.text).toContain('Rolls-Royce Ghost는 3월 14일 (토)에 이미 예약되어 있습니다.');
  });

  it('warns when the car seats fewer than the passengers and names cars that fit', () => {
    const [t] = talk(['고스트로 할게요'], { '탑승 인원': 6 });
    expect(t.updates).toEqual({ 차량: 'Rolls-Royce Ghost', '차량 번호': 3 });
    expect(t.text).toContain('Rolls-Royce Ghost는 최대 4명까지 탑승할 수 있습니다. 6명이 타실 수 있는 차량: Kia Carnival Hi-Limousine');
  });

  it('asks which car when a brand has several', () => {
    const [t] = talk(['벤츠로 할게요']);
    expect(t.updates).toEqual({});
    expect(t.text).toContain('해당 브랜드의 차량은 Mercedes Benz Maybach S-Class, Mercedes Benz S-Class, Mercedes Benz G-Class입니다. 어떤 차량으로 하시겠어요?');
  });

  it('prices from the catalogue: 8 hours included, each started hour beyond at the overtime fee or 10%', () => {
    const [ghost] = talk(['10시간 쓰면 얼마예요?'], { 차량: 'Rolls-Royce Ghost', '차량 번호': 3 });
    expect(ghost.text).toContain('Rolls-Royce Ghost는 8시간 1,800,000원, 초과 1시간당 180,000원입니다. 10시간 이용 시 1,800,000원 + 초과 2시간 × 180,000원 = 2,160,000원입니다.');
    expect(ghost.ui_triggers).toContain('pricing');
    const [half] = talk(['8시간 30분이면 요금이 얼마인가요'], { '차량 번호': 9, 차량: 'Genesis G90' });
    expect(half.text).toContain('8시간 30분 이용 시 550,000원 + 초과 1시간 × 65,000원 = 615,000원입니다.');
    const [all] = talk(['요금이 어떻게 되나요?']);
    const lines = all.text.split('\n').filter((l) => l.startsWith('· '));
    expect(lines).toHaveLength(FLEET.length);
    expect(lines[0]).toBe('· Kia Carnival Hi-Limousine (7인승): 8시간 450,000원, 초과 1시간당 55,000원');
    expect(lines.at(-1)).toBe('· Rolls-Royce Cullinan (5인승): 8시간 2,000,000원, 초과 1시간당 220,000원');
  });

  it('answers about a car named in a question without choosing it', () => {
    const [t] = talk(['마이바흐는 얼마예요?']);
    expect(t.updates).toEqual({});
    expect(t.text).toContain('Mercedes Benz Maybach S-Class는 8시간 1,200,000원, 초과 1시간당 150,000원입니다.');
  });

  it('lists the fleet, a car’s reserved days and the free cars of a day', () => {
    const [fleet] = talk(['어떤 차량이 있나요?']);
    for (const car of FLEET) expect(fleet.text).toContain(`· ${car.model.brand.name} ${car.model.name} (`);
    expect(fleet.ui_triggers).toContain('fleet');
    const [days] = talk(['고스트 예약 가능한 날 알려주세요']);
    expect(days.text).toContain('Rolls-Royce Ghost의 예약이 찬 날: 3월 14일 (토)');
    const [free] = talk(['그날 예약 가능한 차 있어요?'], { 날짜: '2026-03-13' });
    expect(free.text).toContain('3월 13일 (금)에 이용 가능한 차량: Genesis G90, BMW i7, Mercedes Benz S-Class');
    expect(free.text).not.toMatch(/이용 가능한 차량: [^\n]*(Maybach|Carnival)/);
  });

  it('picks the cheapest car that is free and seats everyone', () => {
    const [t] = talk(['제일 저렴한 차로 해주세요'], { 날짜: '2026-03-13', '탑승 인원': 2 });
    expect(t.updates).toEqual({ 차량: 'Genesis G90', '차량 번호': 9 });
  });

  it('starts from the car of ?carId', () => {
    const [t] = talk(['안녕하세요'], {}, { ...ctx, carId: 5 });
    expect(t.updates).toEqual({ 차량: 'Bentley Bentayga', '차량 번호': 5 });
  });

  it('clears everything on request, says when it did not understand, and points to my page', () => {
    const [reset] = talk(['처음부터 다시 시작할게요'], { 날짜: '2026-03-12', 출발지: '서울역' });
    expect(reset.updates).toEqual(Object.fromEntries(BOOKING_KEYS.map((k) => [k, null])));
    expect(reset.state).toEqual({});
    const [lost] = talk(['음...']);
    expect(lost.text).toBe('죄송합니다. 말씀을 정확히 이해하지 못했습니다.\n\n언제 이용하실 예정인가요? (예: 내일, 다음 주 금요일, 12월 3일)');
    const [my] = talk(['내 예약 내역 보고 싶어요']);
    expect(my.ui_triggers).toContain('my');
    const [many] = talk(['30명']);
    expect(many.text).toContain('탑승 인원은 1명부터 20명까지 가능합니다.');
  });

  it('is deterministic', () => {
    const a = talk(['모레 오후 3시 서울역에서 코엑스까지 4명 마이바흐']);
    const b = talk(['모레 오후 3시 서울역에서 코엑스까지 4명 마이바흐']);
    expect(a).toEqual(b);
  });
});

const DATE_QUESTION = '언제 이용하실 예정인가요? (예: 내일, 다음 주 금요일, 12월 3일)';
const TIME_QUESTION = '몇 시에 탑승하실 예정인가요? (예: 오전 9시, 오후 2시 반, 14:30)';
const G90 = { 차량: 'Genesis G90', '차량 번호': 9 };

describe('하루종일: a full-day booking (now Wednesday 2026-03-11 10:00)', () => {
  const LINE_9_21 = '하루종일 이용: 오전 9시 ~ 오후 9시 (12시간)';

  it('sets 09:00–21:00 (12 hours), writes it into the memo and says the hours, the overtime and the form’s end time', () => {
    const [t] = talk(['다음 주 금요일 하루종일 쓰고 싶어요']);
    expect(t.updates).toEqual({ 날짜: '2026-03-20', '탑승 시간': '09:00', 메모: LINE_9_21 });
    expect(t.text).toContain('하루종일 이용으로 오전 9시부터 오후 9시까지 12시간 일정을 잡았습니다.');
    expect(t.text).toContain('요금은 8시간 기본 요금에 초과 4시간 요금이 더해집니다.');
    expect(t.text).toContain('예약 신청서의 도착 시간도 오후 9시로 채워 드립니다.');
    expect(t.next_prompt).toBe('어디에서 출발하시나요? (예: 인천공항 제1터미널, 강남역)');
  });

  it('hands the hours to the reservation form, so its end time is the full day’s', () => {
    const [t] = talk(['다음 주 금요일 하루종일 쓰고 싶어요']);
    expect(stateToPrefill(applyUpdates({}, t.updates))).toMatchObject({ date: '2026-03-20', time: '09:00', hours: 12 });
    expect(stateToPrefill({ 날짜: '2026-03-20', 메모: '공항 픽업' }).hours).toBeUndefined();
  });

  for (const phrase of ['종일 이용할게요', '하루 종일이요', '온종일 부탁드려요', '하루 대절로 해주세요', '하루 내내 써야 해요', '풀데이']) {
    it(`${phrase}: the same full day`, () => {
      const [t] = talk([phrase], { 날짜: '2026-03-20' });
      expect(t.updates).toEqual({ '탑승 시간': '09:00', 메모: LINE_9_21 });
      expect(t.text).toContain('오전 9시부터 오후 9시까지 12시간');
    });
  }

  it('prices the day with the chosen car: 8 hours plus 4 started hours of overtime', () => {
    const [t] = talk(['모레 하루종일'], G90);
    expect(t.text).toContain('Genesis G90 기준 550,000원 + 초과 4시간 × 65,000원 = 810,000원입니다.');
  });

  it('starts at the time said, or the time already chosen, and ends when told', () => {
    const [said] = talk(['모레 종일, 아침 8시부터 저녁 8시까지']);
    expect(said.updates).toEqual({ 날짜: '2026-03-13', '탑승 시간': '08:00', 메모: '하루종일 이용: 오전 8시 ~ 오후 8시 (12시간)' });
    const [until] = talk(['온종일 이용, 밤 10시까지'], { 날짜: '2026-03-13' });
    expect(until.updates).toEqual({ '탑승 시간': '09:00', 메모: '하루종일 이용: 오전 9시 ~ 오후 10시 (13시간)' });
    expect(until.text).toContain('초과 5시간');
    const [kept] = talk(['하루종일 쓸게요'], { 날짜: '2026-03-13', '탑승 시간': '10:00', 메모: '생수 준비' });
    expect(kept.updates).toEqual({ 메모: '하루종일 이용: 오전 10시 ~ 오후 10시 (12시간) / 생수 준비' });
    expect(kept.text).toContain('오전 10시부터 오후 10시까지 12시간');
  });

  it('after an afternoon time was given, 하루종일 books that day (09:00–21:00), not 14:00 to 02:00 the next day', () => {
    const [t] = talk(['하루종일로 바꿔주세요'], { 날짜: '2026-03-13', '탑승 시간': '14:00' });
    expect(t.updates).toEqual({ '탑승 시간': '09:00', 메모: LINE_9_21 });
    expect(t.text).toContain('하루종일 이용으로 오전 9시부터 오후 9시까지 12시간 일정을 잡았습니다.');
    expect(t.text).not.toContain('다음 날');
  });

  it('on today, once 09:00 has gone, starts at the next whole hour', () => {
    const [t] = talk(['오늘 하루종일']);
    expect(t.updates).toEqual({ 날짜: '2026-03-11', '탑승 시간': '11:00', 메모: '하루종일 이용: 오전 11시 ~ 오후 11시 (12시간)' });
    const [kept] = talk(['오늘 하루종일'], { 날짜: '2026-03-20', '탑승 시간': '08:00' });
    expect(kept.updates).toEqual({ 날짜: '2026-03-11', '탑승 시간': '11:00', 메모: '하루종일 이용: 오전 11시 ~ 오후 11시 (12시간)' });
    const [late] = talk(['오늘 하루종일'], {}, { ...ctx, now: new Date('2026-03-11T14:30:00Z') }); // 23:30 in Seoul
    expect(late.updates).toEqual({ 날짜: '2026-03-11' });
    expect(late.text).toContain('오늘은 하루종일 이용할 시간이 남아 있지 않습니다.');
  });

  it('keeps the day’s hours in the memo when the start moves or another request is added', () => {
    const turns = talk(['다음 주 금요일 하루종일', '오전 7시로 바꿔주세요', '생수 준비해주세요']);
    expect(turns[1].updates).toEqual({ '탑승 시간': '07:00', 메모: '하루종일 이용: 오전 7시 ~ 오후 7시 (12시간)' });
    expect(turns[2].state.메모).toBe('하루종일 이용: 오전 7시 ~ 오후 7시 (12시간) / 생수 준비해주세요');
  });

  it('a price question about a full day answers for 12 hours and books nothing', () => {
    const [t] = talk(['하루종일 쓰면 얼마예요?'], G90);
    expect(t.updates).toEqual({});
    expect(t.text).toContain('12시간 이용 시 550,000원 + 초과 4시간 × 65,000원 = 810,000원입니다.');
  });

  it('stays within what POST /butlers accepts, and says the API’s limit beyond it', () => {
    const [t] = talk(['다음 주 금요일 하루종일']);
    const start = koreaInstant(t.state.날짜!, t.state['탑승 시간']!)!;
    expect(tripProblems({ start, end: new Date(start.getTime() + 12 * 3_600_000) }, NOW)).toEqual([]);
    const [long] = talk(['하루 대절, 75시간'], { 날짜: '2026-03-20' });
    expect(long.text).toContain('이용 시간은 최대 72시간까지 예약할 수 있습니다.');
    expect(long.updates.메모).toBeUndefined();
  });
});

describe('days and times gone (now Wednesday 2026-03-11 10:00)', () => {
  it('"어제 예약 가능?" is answered as past, and the day agreed before stays', () => {
    const [t] = talk(['어제 예약 가능?'], { 날짜: '2026-03-20', 출발지: '서울역' });
    expect(t.updates.날짜).toBeUndefined();
    expect(t.state.날짜).toBe('2026-03-20');
    expect(t.text).toContain('3월 10일 (화)는 이미 지난 날짜라 예약할 수 없습니다. 앞서 정한 3월 20일 (금)은 그대로 두었습니다.');
  });


  for (const [phrase, shown] of [
    ['어제', '3월 10일 (화)는'],
    ['그저께로 해주세요', '3월 9일 (월)은'],
    ['엊그제 오후 2시', '3월 9일 (월)은'],
    ['지난주 금요일', '3월 6일 (금)은'],
    ['3월 1일', '3월 1일 (일)은'],
    ['지난달 20일', '2월 20일 (금)은'],
    ['2025-12-24', '2025년 12월 24일 (수)는'],
  ] as const) {
    it(`${phrase}: answered as past, the day kept before is emptied (not kept silently) and a new day is asked for`, () => {
      const [t] = talk([phrase], { 날짜: '2026-03-20', 출발지: '서울역' });
      expect(t.updates.날짜).toBeNull();
      expect(t.state.날짜).toBeUndefined();
      expect(t.text).toContain(`${shown} 이미 지난 날짜입니다. 앞서 정한 3월 20일 (금)도 비워 두었습니다. 오늘(3월 11일 (수)) 이후의 날짜를 알려주세요.`);
      expect(t.text).not.toContain('· 날짜');
      expect(t.next_prompt).toBe(DATE_QUESTION);
      const [fresh] = talk([phrase]);
      expect(fresh.updates.날짜).toBeUndefined();
      expect(fresh.text).toContain(`${shown} 이미 지난 날짜입니다.`);
    });
  }

  it('refuses a time gone today and empties the one kept before', () => {
    const [t] = talk(['오늘 오전 9시로 바꿔주세요'], { 날짜: '2026-03-20', '탑승 시간': '15:00' });
    expect(t.updates).toEqual({ 날짜: '2026-03-11', '탑승 시간': null });
    expect(t.text).toContain('3월 11일 (수) 오전 9시는 이미 지난 시간입니다. 앞서 정한 오후 3시도 비워 두었습니다. 지금(오전 10시) 이후의 탑승 시간을 알려주세요.');
    expect(t.next_prompt).toBe(TIME_QUESTION);
    const [later] = talk(['오늘 오후 3시']);
    expect(later.updates).toEqual({ 날짜: '2026-03-11', '탑승 시간': '15:00' });
  });

  it('a new day that makes the kept time gone empties it and says so', () => {
    const [t] = talk(['오늘로 바꿔주세요'], { 날짜: '2026-03-20', '탑승 시간': '09:00' });
    expect(t.updates).toEqual({ 날짜: '2026-03-11', '탑승 시간': null });
    expect(t.text).toContain('3월 11일 (수) 오전 9시는 이미 지난 시간이라 탑승 시간을 비워 두었습니다.');
  });

  it('a kept day gone since (a conversation picked up later) is emptied and said', () => {
    const [t] = talk(['안녕하세요'], { 날짜: '2026-03-05', '탑승 시간': '09:00' });
    expect(t.updates).toEqual({ 날짜: null });
    expect(t.text).toContain('앞서 정한 3월 5일 (목)은 이미 지난 날짜라 비워 두었습니다.');
    expect(t.text).toContain('LUXE 의전 예약 도우미');
    expect(t.next_prompt).toBe(DATE_QUESTION);
  });

  it('uses the booking API’s bounds: a start after now, at most 180 days ahead', () => {
    const accepts = (date: string, time?: string) => {
      const r = reconcileUpdates(time ? { 날짜: date, '탑승 시간': time } : { 날짜: date }, {}, ctx);
      return r.updates.날짜 === date && (!time || r.updates['탑승 시간'] === time);
    };
    const api = (date: string, time: string) => tripProblems({ start: koreaInstant(date, time)!, end: null }, NOW).length === 0;
    for (const [date, time] of [['2026-03-11', '10:00'], ['2026-03-11', '10:01'], ['2026-03-10', '23:59'], ['2026-09-07', '23:00'], ['2026-09-08', '00:00']] as const) {
      expect(accepts(date, time), `${date} ${time}`).toBe(api(date, time));
    }
    expect(accepts('2026-09-07')).toBe(true);
    expect(accepts('2026-09-08')).toBe(false);
    expect(reconcileUpdates({ 날짜: '2026-09-08' }, {}, ctx).warnings).toEqual(['예약은 오늘부터 180일 이내의 날짜만 가능합니다. (9월 7일 (월)까지) 다른 날짜를 알려주세요.']);
  });

  it('checks a model’s updates the same way', () => {
    expect(reconcileUpdates({ 날짜: '2026-03-10', 출발지: '서울역' }, { 날짜: '2026-03-20' }, ctx)).toEqual({
      updates: { 날짜: null, 출발지: '서울역' },
      warnings: ['3월 10일 (화)는 이미 지난 날짜입니다. 앞서 정한 3월 20일 (금)도 비워 두었습니다. 오늘(3월 11일 (수)) 이후의 날짜를 알려주세요.'],
      refused: ['날짜'],
    });
  });
});

describe('hand-off to the reservation form', () => {
  it('carries car, start, places, waypoints, passengers, purpose and memo (with the contact) in the query', () => {
    const state: BookingState = {
      날짜: '2026-03-20',
      '탑승 시간': '09:00',
      출발지: '김포공항',
      목적지: '여의도 IFC',
      경유지: ['코엑스', '롯데월드타워'],
      '탑승 인원': 3,
      차량: 'Genesis G90',
      '차량 번호': 9,
      목적: '비즈니스',
      메모: '생수 준비',
      담당자: '김민수',
    };
    const prefill = stateToPrefill(state);
    expect(prefill).toEqual({ carId: 9, date: '2026-03-20', time: '09:00', origin: '김포공항', destination: '여의도 IFC', waypoints: ['코엑스', '롯데월드타워'], passengers: 3, purpose: '비즈니스', memo: '생수 준비 / 담당자: 김민수' });
    expect(prefillFromSearch(prefillToSearch(prefill))).toEqual(prefill);
    expect(stateToPrefill({})).toEqual({});
  });
});

describe('the LLM protocol', () => {
  it('hides the fenced block however the chunks split it', () => {
    const s = new FenceSplitter();
    const shown = ['안녕하세요. ', '예약을 도와드릴게요.\n`', '`', '`booking\n{"updates":', '{}}\n```'].map((c) => s.push(c)).join('');
    const end = s.end();
    expect(shown + end.rest).toBe('안녕하세요. 예약을 도와드릴게요.\n');
    expect(end.block).toBe('```booking\n{"updates":{}}\n```');
    const plain = new FenceSplitter();
    expect(plain.push('코드 `x` 는')).toBe('코드 `x` 는');
    expect(plain.push(' 끝`')).toBe(' 끝');
    expect(plain.end()).toEqual({ rest: '`', block: null });
  });

  it('validates the block key by key with the state schema and keeps known triggers only', () => {
    const block = '```booking\n{"updates":{"날짜":"2026-03-20","탑승 인원":99,"출발지":"","경유지":["코엑스"],"목적":null,"모르는 키":1},"ui_triggers":["reserve","hack"],"next_prompt":"목적지는 어디인가요?"}\n```';
    expect(parseLlmBlock(block)).toEqual({ updates: { 날짜: '2026-03-20', 경유지: ['코엑스'], 목적: null }, ui_triggers: ['reserve'], next_prompt: '목적지는 어디인가요?' });
    expect(parseLlmBlock('```json\nnot json\n```')).toBeNull();
    expect(parseLlmBlock(null)).toBeNull();
  });

  it('gives the model today, the pricing rule, the fleet with reserved days and the state', () => {
    const [system, user] = buildLlmMessages({ message: '내일 3명', state: { 출발지: '서울역' }, fleet: FLEET, now: NOW, hints: { '탑승 인원': 3 } });
    expect(system.content).toContain('오늘은 2026년 3월 11일 (수), 한국 시간 10:00입니다.');
    expect(system.content).toContain('"이름":"Rolls-Royce Ghost"');
    expect(system.content).toContain('"초과 1시간 요금":180000');
    expect(system.content).toContain('"예약된 날":["2026-03-13","2026-03-20"]');
    expect(system.content).toContain('현재 예약 정보(JSON): {"출발지":"서울역"}');
    expect(user.content).toBe('내일 3명\n\n(자동 분석 참고: {"탑승 인원":3})');
    expect(system.content).toContain('지난 날짜(어제, 그저께 등)나 오늘 이미 지난 시간은 기록하지 말고');
    expect(system.content).toContain("'하루종일'(종일, 온종일, 하루 대절)은 따로 말한 시간이 없으면 오전 9시부터 오후 9시까지 12시간 이용으로 보고");
  });
});

describe('the chat request and the stored state', () => {
  it('bounds the message and the state size', () => {
    expect(ChatRequestSchema.safeParse({ message: '안녕', state: {} }).success).toBe(true);
    expect(ChatRequestSchema.safeParse({ message: '가'.repeat(1001) }).success).toBe(false);
    expect(ChatRequestSchema.safeParse({ message: '안녕', state: { 메모: '가'.repeat(2900) } }).success).toBe(false);
    expect(ChatRequestSchema.parse({ message: ' 안녕 ', carId: '7', state: { 날짜: null } })).toEqual({ message: '안녕', carId: 7, state: {} });
  });
  it('reads a stored state defensively, key by key', () => {
    expect(sanitizeState({ 날짜: '2026-03-12', '탑승 인원': 'many', 경유지: ['코엑스'], 엉뚱한: true })).toEqual({ 날짜: '2026-03-12', 경유지: ['코엑스'] });
    expect(sanitizeState('garbage')).toEqual({});
  });
});
