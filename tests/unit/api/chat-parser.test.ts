import { describe, expect, it } from 'vitest';
import { parseMessage } from '../../../src/api/chat/parser';
import type { BookingKey, BookingUpdates } from '../../../src/domain/chat/state';
import { findDate, findHours, findTime } from '../../../src/api/chat/when';
import { FLEET, TODAY } from './chat-fleet';

const MAYBACH = { 차량: 'Mercedes Benz Maybach S-Class', '차량 번호': 1 };
const S_CLASS = { 차량: 'Mercedes Benz S-Class', '차량 번호': 2 };
const GHOST = { 차량: 'Rolls-Royce Ghost', '차량 번호': 3 };
const CULLINAN = { 차량: 'Rolls-Royce Cullinan', '차량 번호': 4 };
const BENTAYGA = { 차량: 'Bentley Bentayga', '차량 번호': 5 };
const I7 = { 차량: 'BMW i7', '차량 번호': 6 };
const G_CLASS = { 차량: 'Mercedes Benz G-Class', '차량 번호': 7 };
const CARNIVAL = { 차량: 'Kia Carnival Hi-Limousine', '차량 번호': 8 };
const G90 = { 차량: 'Genesis G90', '차량 번호': 9 };

/**
 * [utterance, exact updates, key the assistant asked for last]. Today is Wednesday
 * 2026-03-11 in Seoul; a month and day gone in the last 120 days is that past day (the
 * dialogue answers it is past), an older one rolls to next year.
 */
const TABLE: Array<[string, BookingUpdates, BookingKey?]> = [
  // Relative and absolute dates
  ['내일', { 날짜: '2026-03-12' }],
  ['모레 가능할까요', { 날짜: '2026-03-13' }],
  ['글피', { 날짜: '2026-03-14' }],
  ['내일모레 오후 1시', { 날짜: '2026-03-13', '탑승 시간': '13:00' }],
  ['다음 주 금요일', { 날짜: '2026-03-20' }],
  ['이번 주 토요일 오전 10시', { 날짜: '2026-03-14', '탑승 시간': '10:00' }],
  ['담주 월요일', { 날짜: '2026-03-16' }],
  ['금요일 저녁 7시', { 날짜: '2026-03-13', '탑승 시간': '19:00' }],
  ['수요일', { 날짜: '2026-03-18' }],
  ['12월 3일', { 날짜: '2026-12-03' }],
  ['12/3', { 날짜: '2026-12-03' }],
  ['3월 1일', { 날짜: '2026-03-01' }],
  ['2026-04-05 14:00', { 날짜: '2026-04-05', '탑승 시간': '14:00' }],
  ['2026년 5월 5일', { 날짜: '2026-05-05' }],
  ['3일 후', { 날짜: '2026-03-14' }],
  ['이틀 뒤 아침 8시', { 날짜: '2026-03-13', '탑승 시간': '08:00' }],
  ['일주일 뒤', { 날짜: '2026-03-18' }],
  ['이번 주말', { 날짜: '2026-03-14' }],
  ['다음 주말 오후 2시', { 날짜: '2026-03-21', '탑승 시간': '14:00' }],
  ['20일 오후 6시', { 날짜: '2026-03-20', '탑승 시간': '18:00' }],
  ['다음 달 5일', { 날짜: '2026-04-05' }],
  ['오늘 밤 10시', { 날짜: '2026-03-11', '탑승 시간': '22:00' }],
  ['4.10 오전 11시 30분', { 날짜: '2026-04-10', '탑승 시간': '11:30' }],
  ['내일 말고 모레로 해주세요', { 날짜: '2026-03-13' }],
  ['날짜를 12월 5일로 바꿔주세요', { 날짜: '2026-12-05' }],
  // Days gone, read so the dialogue can say so
  ['어제', { 날짜: '2026-03-10' }],
  ['그저께 오후 3시', { 날짜: '2026-03-09', '탑승 시간': '15:00' }],
  ['그제', { 날짜: '2026-03-09' }],
  ['엊그제요', { 날짜: '2026-03-09' }],
  ['그끄저께', { 날짜: '2026-03-08' }],
  ['지난주 금요일', { 날짜: '2026-03-06' }],
  ['저번 주 월요일 아침 8시', { 날짜: '2026-03-02', '탑승 시간': '08:00' }],
  ['지난 금요일', { 날짜: '2026-03-06' }],
  ['지난 수요일', { 날짜: '2026-03-04' }],
  ['지난 주말', { 날짜: '2026-03-07' }],
  ['지난달 20일', { 날짜: '2026-02-20' }],
  ['3/5', { 날짜: '2026-03-05' }],
  ['1월 3일', { 날짜: '2026-01-03' }],
  ['10월 1일', { 날짜: '2026-10-01' }],
  ['어제 말씀드린 대로 20일 오후 2시', { 날짜: '2026-03-20', '탑승 시간': '14:00' }],
  // Times
  ['오후 2시 반', { '탑승 시간': '14:30' }],
  ['14:30', { '탑승 시간': '14:30' }],
  ['아침 9시', { '탑승 시간': '09:00' }],
  ['오후 세 시', { '탑승 시간': '15:00' }],
  ['새벽 5시 40분', { '탑승 시간': '05:40' }],
  ['정오', { '탑승 시간': '12:00' }],
  ['3시', { '탑승 시간': '15:00' }],
  ['10시', { '탑승 시간': '10:00' }],
  ['저녁 여섯 시 반', { '탑승 시간': '18:30' }],
  ['오전 11시부터 5시간 이용', { '탑승 시간': '11:00' }],
  ['출발 시간은 오후 4시로 변경해주세요', { '탑승 시간': '16:00' }],
  ['9', { '탑승 시간': '09:00' }, '탑승 시간'],
  // Places and waypoints
  ['인천공항에서 강남역까지', { 출발지: '인천공항', 목적지: '강남역' }],
  ['인천공항 → 강남역', { 출발지: '인천공항', 목적지: '강남역' }],
  ['김포공항 -> 여의도 IFC -> 판교역', { 출발지: '김포공항', 목적지: '판교역', 경유지: ['여의도 IFC'] }],
  ['서울역에서 출발해서 코엑스 들러서 잠실역으로 가요', { 출발지: '서울역', 목적지: '잠실역', 경유지: ['코엑스'] }],
  ['신라호텔 출발 시청 경유 광화문 도착', { 출발지: '신라호텔', 목적지: '광화문', 경유지: ['시청'] }],
  ['출발지는 김포공항이고 목적지는 롯데호텔 서울이에요', { 출발지: '김포공항', 목적지: '롯데호텔 서울' }],
  ['목적지를 수원역으로 바꿔주세요', { 목적지: '수원역' }],
  ['도착지: 부산 해운대', { 목적지: '부산 해운대' }],
  ['경유지는 코엑스랑 롯데월드타워', { 경유지: ['코엑스', '롯데월드타워'] }],
  ['경유지 없이 가주세요', { 경유지: null }],
  ['강남구 테헤란로 152에서 을지로입구역까지', { 출발지: '강남구 테헤란로 152', 목적지: '을지로입구역' }],
  ['판교에서 인천공항 제2터미널로 가야 해요', { 출발지: '판교', 목적지: '인천공항 제2터미널' }],
  ['강남역 2번 출구에서 픽업해주세요', { 출발지: '강남역 2번 출구' }],
  ['청담동 집에서 출발해요', { 출발지: '청담동 집' }],
  ['반포 래미안에서 오후 3시에 출발', { 출발지: '반포 래미안', '탑승 시간': '15:00' }],
  ['김포공항이요', { 출발지: '김포공항' }, '출발지'],
  ['여의도 콘래드 호텔', { 목적지: '여의도 콘래드 호텔' }, '목적지'],
  // Passenger counts
  ['3명', { '탑승 인원': 3 }],
  ['세 명이요', { '탑승 인원': 3 }],
  ['두 분이 탑승합니다', { '탑승 인원': 2 }],
  ['성인 2명 아이 1명', { '탑승 인원': 3 }],
  ['인원은 5명', { '탑승 인원': 5 }],
  ['혼자 타요', { '탑승 인원': 1 }],
  ['둘이서 가요', { '탑승 인원': 2 }],
  ['4인', { '탑승 인원': 4 }],
  ['4', { '탑승 인원': 4 }, '탑승 인원'],
  ['인원 3명 말고 4명으로 해주세요', { '탑승 인원': 4 }],
  ['다섯 분 모실 거예요', { '탑승 인원': 5 }],
  // Purposes
  ['공항 픽업이에요', { 목적: '공항 픽업' }],
  ['결혼식 웨딩카로 쓰려고요', { 목적: '웨딩' }],
  ['비즈니스 미팅 때문에', { 목적: '비즈니스' }],
  ['골프 라운딩', { 목적: '골프' }],
  ['부모님 칠순 잔치', { 목적: '가족 행사' }],
  ['출국하는 날 공항 샌딩', { 목적: '공항 샌딩' }],
  // Cars of the fleet, in Korean or Latin
  ['마이바흐로 할게요', MAYBACH],
  ['롤스로이스 고스트', GHOST],
  ['컬리넌으로 부탁해요', CULLINAN],
  ['지바겐', G_CLASS],
  ['G90으로 해주세요', G90],
  ['카니발 하이리무진', CARNIVAL],
  ['BMW i7', I7],
  ['S클래스', S_CLASS],
  ['벤테이가', BENTAYGA],
  // Memo and contact
  ['메모: 생수 두 병 준비해주세요', { 메모: '생수 두 병 준비해주세요' }],
  ['요청사항은 네임보드 부탁드립니다', { 메모: '네임보드 부탁드립니다' }],
  ['캐리어가 3개 있어요', { 메모: '캐리어가 3개 있어요' }],
  ['담당자는 김민수 010-1234-5678', { 담당자: '김민수 010-1234-5678' }],
  // Whole requests
  ['내일 오후 2시 반에 인천공항에서 강남역까지 3명이요', { 날짜: '2026-03-12', '탑승 시간': '14:30', 출발지: '인천공항', 목적지: '강남역', '탑승 인원': 3 }],
  [
    '다음 주 금요일 아침 9시에 마이바흐로 김포공항에서 여의도까지 두 명, 비즈니스 미팅입니다',
    { 날짜: '2026-03-20', '탑승 시간': '09:00', ...MAYBACH, 출발지: '김포공항', 목적지: '여의도', '탑승 인원': 2, 목적: '비즈니스' },
  ],
  [
    '12월 24일 저녁 6시 반 신라호텔에서 출발해서 명동성당 들렀다가 남산타워까지 가요. 4명이고 프로포즈 예정이에요',
    { 날짜: '2026-12-24', '탑승 시간': '18:30', 출발지: '신라호텔', 목적지: '남산타워', 경유지: ['명동성당'], '탑승 인원': 4, 목적: '기념일' },
  ],
  [
    '모레 오전 10시 서울역 출발 → 코엑스 → 판교역, 성인 3명 아이 2명, 카니발로 부탁해요',
    { 날짜: '2026-03-13', '탑승 시간': '10:00', 출발지: '서울역', 목적지: '판교역', 경유지: ['코엑스'], '탑승 인원': 5, ...CARNIVAL },
  ],
  [
    '이번 주 토요일 정오 웨딩홀에서 호텔까지 롤스로이스 고스트 웨딩카',
    { 날짜: '2026-03-14', '탑승 시간': '12:00', 출발지: '웨딩홀', 목적지: '호텔', ...GHOST, 목적: '웨딩' },
  ],
  ['VIP 손님 두 분을 인천공항에서 모시고 시청까지 가 주세요', { 출발지: '인천공항', 목적지: '시청', '탑승 인원': 2, 목적: '비즈니스' }],
  ['이번 주말 정오에 캐리어가 3개 있어요', { 날짜: '2026-03-14', '탑승 시간': '12:00', 메모: '캐리어가 3개 있어요' }],
  ['인천공항에서 픽업해서 호텔까지 가는데 피켓 준비해주세요', { 출발지: '인천공항', 목적지: '호텔', 목적: '공항 픽업', 메모: '피켓 준비해주세요' }],
];

describe('parseMessage: a table of Korean booking utterances', () => {
  it('has at least 60 utterances', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });
  for (const [utterance, expected, expecting] of TABLE) {
    it(`${utterance}${expecting ? ` (asked: ${expecting})` : ''}`, () => {
      expect(parseMessage(utterance, { today: TODAY, fleet: FLEET, expecting: expecting ?? null }).updates).toEqual(expected);
    });
  }
});

describe('parseMessage: what is not booking data', () => {
  const parse = (m: string, expecting: BookingKey | null = null) => parseMessage(m, { today: TODAY, fleet: FLEET, expecting });

  it('offers the choices of a brand with several cars', () => {
    const r = parse('벤츠로 할게요');
    expect(r.updates).toEqual({});
    expect(r.carChoices?.map((c) => c.id)).toEqual([1, 2, 7]);
  });
  it('reports a passenger count outside 1–20 without taking it', () => {
    const r = parse('25명');
    expect(r.updates).toEqual({});
    expect(r.passengersOutOfRange).toBe(25);
  });
  it('reads hours of use and seats for price answers, never as a time or a count', () => {
    const r = parse('7인승으로 10시간 쓰면 얼마예요?');
    expect(r.updates).toEqual({});
    expect(r.hours).toBe(10);
    expect(r.seats).toBe(7);
    expect(r.intents).toEqual(expect.arrayContaining(['price', 'question']));
  });
  it('a bare word is a place only when the assistant asked for one, and never a question', () => {
    expect(parse('강남역').updates).toEqual({});
    expect(parse('강남역', '목적지').updates).toEqual({ 목적지: '강남역' });
    expect(parse('어디가 좋을까요?', '출발지').updates).toEqual({});
    expect(parse('3', '출발지').updates).toEqual({});
  });
  it('knows reset, fleet, price, availability, confirm and my-page requests', () => {
    expect(parse('처음부터 다시 시작할래요').intents).toContain('reset');
    expect(parse('어떤 차가 있어요?').intents).toContain('fleet');
    expect(parse('요금이 어떻게 되나요').intents).toContain('price');
    expect(parse('그날 예약 가능한 차 있어요?').intents).toContain('availability');
    expect(parse('이대로 예약할게요').intents).toContain('confirm');
    expect(parse('내 예약 확인하고 싶어요').intents).toContain('my');
  });
  it('leaves words that only look like times alone (시간, 시청, 네 시작)', () => {
    expect(findTime('네 시청 앞에서 만나요').time).toBeNull();
    expect(findTime('5시간 정도 걸려요').time).toBeNull();
    expect(findHours('9시간 반')).toBe(9.5);
    expect(findDate('2박 3일 일정이에요', TODAY).date).toBeNull();
  });
});

describe('past days and the year of a month and day', () => {
  it('reads 1월 3일 said in November as next January, 11월 1일 said on 20 November as the day gone', () => {
    expect(findDate('1월 3일', '2026-11-20').date?.value).toBe('2027-01-03');
    expect(findDate('11월 1일', '2026-11-20').date?.value).toBe('2026-11-01');
    expect(findDate('12/24', '2026-11-20').date?.value).toBe('2026-12-24');
    // Gone more than 120 days ago: next year's.
    expect(findDate('7월 1일', '2026-11-20').date?.value).toBe('2027-07-01');
    expect(findDate('지난달 5일', '2027-01-10').date?.value).toBe('2026-12-05');
  });
  it('leaves 그제서야 and 최종일 alone', () => {
    expect(findDate('그제서야 알았어요', TODAY).date).toBeNull();
    expect(parseMessage('최종일 일정', { today: TODAY, fleet: FLEET }).fullDay).toBeUndefined();
  });
});

describe('full-day requests', () => {
  const parse = (m: string) => parseMessage(m, { today: TODAY, fleet: FLEET, expecting: null });
  for (const phrase of ['하루종일', '하루 종일 쓸게요', '종일 이용하려고요', '온종일 부탁해요', '하루 대절', '하루 내내 기다려 주세요', '일일 대절이요', '풀데이로', 'full day']) {
    it(`${phrase}: the whole day, with nothing else read into it`, () => {
      const r = parse(phrase);
      expect(r.fullDay).toEqual({});
      expect(r.updates).toEqual({});
    });
  }
  it('keeps the date, places and the start said with it, and reads until when', () => {
    expect(parse('내일 하루종일 강남역에서 출발')).toMatchObject({ fullDay: {}, updates: { 날짜: '2026-03-12', 출발지: '강남역' } });
    expect(parse('모레 종일, 아침 8시부터 저녁 8시까지')).toMatchObject({ fullDay: { end: '20:00' }, updates: { 날짜: '2026-03-13', '탑승 시간': '08:00' } });
    expect(parse('하루종일 9시부터 6시까지')).toMatchObject({ fullDay: { end: '18:00' }, updates: { '탑승 시간': '09:00' } });
    const untilOnly = parse('온종일 이용, 9시까지');
    expect(untilOnly.fullDay).toEqual({ end: '21:00' });
    expect(untilOnly.updates).toEqual({});
    expect(parse('하루종일 밤 12시까지').fullDay).toEqual({ end: '00:00' });
  });
  it('is no bare place answer', () => {
    expect(parseMessage('하루종일 쓸게요', { today: TODAY, fleet: FLEET, expecting: '출발지' }).updates).toEqual({});
  });
  it('outside a full day a time before 까지 stays the boarding time', () => {
    expect(parse('오후 6시까지 강남역').updates['탑승 시간']).toBe('18:00');
  });
});
