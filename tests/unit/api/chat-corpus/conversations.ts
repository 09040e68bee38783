/**
 * The booking chat's corpus: multi-turn conversations written by the team, with what the
 * booking must hold after every turn. The clock is fixed (Wednesday 2026-03-11 10:00 in Seoul,
 * tests/unit/api/chat-fleet.ts) and so is the fleet (Maybach taken on 13 and 20 March, Ghost on
 * 14 March, Carnival on 13 March).
 *
 * A turn lists only the slots the customer changed (`set`, null = removed); every other slot
 * must stay as it was after the turn before (`reset` empties the booking first). The phrasing
 * varies on purpose: numerals and native numbers, particles glued to places, missing spaces,
 * common typos.
 */

/** What the test compares after each turn. 이용 시간 is the hours of the trip (the form's end = start + hours). */
export interface Slots {
  날짜?: string;
  '탑승 시간'?: string;
  '이용 시간'?: number;
  출발지?: string;
  목적지?: string;
  경유지?: string[];
  '탑승 인원'?: number;
  차량?: string;
  목적?: string;
  담당자?: string;
  /** The memo without the line that carries the hours. */
  메모?: string;
}
export type Slot = keyof Slots;
export const SLOTS: readonly Slot[] = ['날짜', '탑승 시간', '이용 시간', '출발지', '목적지', '경유지', '탑승 인원', '차량', '목적', '담당자', '메모'];

export interface CorpusTurn {
  say: string;
  /** Slots this turn changes; null removes one. */
  set?: { [K in Slot]?: Slots[K] | null };
  /** The customer asked to start over or cancel: the booking is emptied before `set`. */
  reset?: boolean;
  /** The customer asked for a person: the chat hands over and keeps the booking. */
  handover?: boolean;
  /** A price question: the reply quotes this trip (this total, in won), not the price list. */
  quote?: number;
  /** The day agreed before changed: the reply says so. */
  dateWarning?: boolean;
}

export interface Conversation {
  id: string;
  turns: CorpusTurn[];
}

const G90 = 'Genesis G90';
const S = 'Mercedes Benz S-Class';
const I7 = 'BMW i7';
const GHOST = 'Rolls-Royce Ghost';
const CARNIVAL = 'Kia Carnival Hi-Limousine';
const BENTAYGA = 'Bentley Bentayga';
const G_CLASS = 'Mercedes Benz G-Class';
const CULLINAN = 'Rolls-Royce Cullinan';

/** The five misreadings of issue 50, each its own conversation. */
export const NAMED_FAILURES = {
  hours: 'hours-kept',
  waypoint: 'waypoint-particle',
  weekday: 'weekday-forward',
  quote: 'trip-quote',
  cancel: 'cancel',
} as const;

export const CONVERSATIONS: Conversation[] = [
  // ── the five misreadings of issue 50 ──
  {
    id: 'hours-kept',
    turns: [
      { say: '다음 주 금요일 오후 2시에 인천공항에서 강남역까지 3명이요', set: { 날짜: '2026-03-20', '탑승 시간': '14:00', 출발지: '인천공항', 목적지: '강남역', '탑승 인원': 3 } },
      { say: '3시간 쓸게요', set: { '이용 시간': 3 } },
      { say: 'G90으로 해주세요', set: { 차량: G90 } },
      { say: '오후 3시로 바꿔줘', set: { '탑승 시간': '15:00' } },
    ],
  },
  {
    id: 'waypoint-particle',
    turns: [
      { say: '내일 오전 10시 서울역에서 잠실 롯데타워까지', set: { 날짜: '2026-03-12', '탑승 시간': '10:00', 출발지: '서울역', 목적지: '잠실 롯데타워' } },
      { say: '중간에 코엑스에 들렀다가 가주세요', set: { 경유지: ['코엑스'] } },
      { say: '광화문도 들러줘', set: { 경유지: ['코엑스', '광화문'] } },
      { say: '두 명이요', set: { '탑승 인원': 2 } },
    ],
  },
  {
    id: 'weekday-forward',
    turns: [
      { say: '다음 주 금요일 오전 9시 김포공항에서 여의도까지 2명', set: { 날짜: '2026-03-20', '탑승 시간': '09:00', 출발지: '김포공항', 목적지: '여의도', '탑승 인원': 2 } },
      { say: '토요일로 바꿔줘', set: { 날짜: '2026-03-21' }, dateWarning: true },
      { say: '목요일로 바꿔주세요', set: { 날짜: '2026-03-26' }, dateWarning: true },
    ],
  },
  {
    id: 'trip-quote',
    turns: [
      { say: '다음 주 화요일 오후 1시 강남역에서 인천공항까지 2명 S클래스로', set: { 날짜: '2026-03-17', '탑승 시간': '13:00', 출발지: '강남역', 목적지: '인천공항', '탑승 인원': 2, 차량: S } },
      { say: '10시간 쓸게요', set: { '이용 시간': 10 } },
      { say: '얼마야?', quote: 930_000 },
    ],
  },
  {
    id: 'cancel',
    turns: [
      { say: '내일 오후 3시 시청에서 인사동까지 4명', set: { 날짜: '2026-03-12', '탑승 시간': '15:00', 출발지: '시청', 목적지: '인사동', '탑승 인원': 4 } },
      { say: '취소', reset: true },
      { say: '모레 오전 11시', set: { 날짜: '2026-03-13', '탑승 시간': '11:00' } },
    ],
  },

  // ── hours of use ──
  {
    id: 'hours-3h',
    turns: [
      { say: '3월 25일 오후 6시 청담동에서 한남동까지', set: { 날짜: '2026-03-25', '탑승 시간': '18:00', 출발지: '청담동', 목적지: '한남동' } },
      { say: '3h 정도 쓸 거예요', set: { '이용 시간': 3 } },
      { say: '4명', set: { '탑승 인원': 4 } },
    ],
  },
  {
    id: 'hours-native',
    turns: [
      { say: '모레 저녁 7시에 광화문에서 성수동까지 갑니다', set: { 날짜: '2026-03-13', '탑승 시간': '19:00', 출발지: '광화문', 목적지: '성수동' } },
      { say: '세 시간 예약할게요', set: { '이용 시간': 3 } },
      { say: '고스트로', set: { 차량: GHOST } },
    ],
  },
  {
    id: 'hours-span-afternoon',
    turns: [
      { say: '다음 주 수요일 오후 2시부터 5시까지 쓸게요', set: { 날짜: '2026-03-18', '탑승 시간': '14:00', '이용 시간': 3 } },
      { say: '출발지는 신라호텔, 목적지는 코엑스', set: { 출발지: '신라호텔', 목적지: '코엑스' } },
      { say: '3명', set: { '탑승 인원': 3 } },
    ],
  },
  {
    id: 'hours-span-clock',
    turns: [
      { say: '내일 14:00~18:00 이용하려고요', set: { 날짜: '2026-03-12', '탑승 시간': '14:00', '이용 시간': 4 } },
      { say: '인천공항 제2터미널에서 픽업해서 반포로 가요', set: { 출발지: '인천공항 제2터미널', 목적지: '반포', 목적: '공항 픽업' } },
    ],
  },
  {
    id: 'hours-time-moves',
    turns: [
      { say: '내일 오전 9시부터 오후 1시까지 성수동에서 압구정까지', set: { 날짜: '2026-03-12', '탑승 시간': '09:00', '이용 시간': 4, 출발지: '성수동', 목적지: '압구정' } },
      { say: '시간을 10시로 바꿔줘', set: { '탑승 시간': '10:00' } },
      { say: '2명', set: { '탑승 인원': 2 } },
    ],
  },
  {
    id: 'hours-change',
    turns: [
      { say: '다음 주 수요일 오후 3시 청담에서 한남까지 2명 2시간', set: { 날짜: '2026-03-18', '탑승 시간': '15:00', 출발지: '청담', 목적지: '한남', '탑승 인원': 2, '이용 시간': 2 } },
      { say: '3시간으로 늘려주세요', set: { '이용 시간': 3 } },
      { say: '두시간 반으로 줄여줘', set: { '이용 시간': 2.5 } },
    ],
  },
  {
    id: 'hours-no-space',
    turns: [
      { say: '다음 주 월요일 오전 11시 을지로에서 목동까지', set: { 날짜: '2026-03-16', '탑승 시간': '11:00', 출발지: '을지로', 목적지: '목동' } },
      { say: '세시간만 쓸게요', set: { '이용 시간': 3 } },
      { say: '혼자 타요', set: { '탑승 인원': 1 } },
    ],
  },
  {
    id: 'hours-spaced',
    turns: [
      { say: '모레 오후 2시 반 판교에서 분당까지 3 명', set: { 날짜: '2026-03-13', '탑승 시간': '14:30', 출발지: '판교', 목적지: '분당', '탑승 인원': 3 } },
      { say: '5 시간 이용할게요', set: { '이용 시간': 5 } },
    ],
  },
  {
    id: 'hours-half',
    turns: [
      { say: '다음 주 목요일 오전 10시에 광화문에서 출발해서 일산까지', set: { 날짜: '2026-03-19', '탑승 시간': '10:00', 출발지: '광화문', 목적지: '일산' } },
      { say: '3시간반 정도요', set: { '이용 시간': 3.5 } },
      { say: 'G90으로 할게요', set: { 차량: G90 } },
    ],
  },
  {
    id: 'hours-span-bare',
    turns: [
      { say: '3월 24일 2시에서 6시까지 쓸 거예요', set: { 날짜: '2026-03-24', '탑승 시간': '14:00', '이용 시간': 4 } },
      { say: '용산역에서 이태원까지 4명', set: { 출발지: '용산역', 목적지: '이태원', '탑승 인원': 4 } },
    ],
  },
  {
    id: 'hours-span-morning',
    turns: [
      { say: '다음 주 화요일 오전 10시부터 오후 2시까지', set: { 날짜: '2026-03-17', '탑승 시간': '10:00', '이용 시간': 4 } },
      { say: '양재역에서 과천까지 가요', set: { 출발지: '양재역', 목적지: '과천' } },
    ],
  },
  {
    id: 'hours-span-evening',
    turns: [
      { say: '글피 저녁 6시부터 10시까지 이용하고 싶어요', set: { 날짜: '2026-03-14', '탑승 시간': '18:00', '이용 시간': 4 } },
      { say: '홍대입구역에서 한강진역까지 3명', set: { 출발지: '홍대입구역', 목적지: '한강진역', '탑승 인원': 3 } },
      { say: '카니발로 해주세요', set: { 차량: CARNIVAL } },
    ],
  },
  {
    id: 'hours-before-time',
    turns: [
      { say: '금요일에 5시간 써요', set: { 날짜: '2026-03-13', '이용 시간': 5 } },
      { say: '오후 1시', set: { '탑승 시간': '13:00' } },
      { say: '삼성역에서 판교역까지', set: { 출발지: '삼성역', 목적지: '판교역' } },
    ],
  },
  {
    id: 'hours-4h-with-start',
    turns: [
      { say: '다음 주 수요일 오후 2시부터 4h', set: { 날짜: '2026-03-18', '탑승 시간': '14:00', '이용 시간': 4 } },
      { say: '인원은 2명이에요', set: { '탑승 인원': 2 } },
    ],
  },
  {
    id: 'hours-while-asked-origin',
    turns: [
      { say: '내일 오후 5시', set: { 날짜: '2026-03-12', '탑승 시간': '17:00' } },
      { say: '4시간 쓸 거예요', set: { '이용 시간': 4 } },
      { say: '서울역', set: { 출발지: '서울역' } },
      { say: '청량리역', set: { 목적지: '청량리역' } },
    ],
  },
  {
    id: 'hours-memo-kept',
    turns: [
      { say: '내일 오후 2시 삼청동에서 북촌까지', set: { 날짜: '2026-03-12', '탑승 시간': '14:00', 출발지: '삼청동', 목적지: '북촌' } },
      { say: '생수 준비해주세요', set: { 메모: '생수 준비해주세요' } },
      { say: '3시간 쓸게요', set: { '이용 시간': 3 } },
      { say: '오후 4시로 변경해 주세요', set: { '탑승 시간': '16:00' } },
    ],
  },

  // ── waypoints and particles ──
  {
    id: 'waypoint-eul-gyeongyu',
    turns: [
      { say: '모레 오전 8시 판교역에서 광화문까지', set: { 날짜: '2026-03-13', '탑승 시간': '08:00', 출발지: '판교역', 목적지: '광화문' } },
      { say: '분당서울대병원을 경유해서 가주세요', set: { 경유지: ['분당서울대병원'] } },
      { say: '1명', set: { '탑승 인원': 1 } },
    ],
  },
  {
    id: 'waypoint-reul-gyeongyu',
    turns: [
      { say: '다음 주 월요일 오전 10시 서울역에서 수원까지 2명', set: { 날짜: '2026-03-16', '탑승 시간': '10:00', 출발지: '서울역', 목적지: '수원', '탑승 인원': 2 } },
      { say: '코엑스를 경유해줘', set: { 경유지: ['코엑스'] } },
    ],
  },
  {
    id: 'waypoint-on-the-way',
    turns: [
      { say: '내일 오후 4시 강남역에서 김포공항까지', set: { 날짜: '2026-03-12', '탑승 시간': '16:00', 출발지: '강남역', 목적지: '김포공항' } },
      { say: '가는 길에 삼성역에 잠깐 들렀다 가요', set: { 경유지: ['삼성역'] } },
      { say: '3명이요', set: { '탑승 인원': 3 } },
    ],
  },
  {
    id: 'waypoint-place-ending-do',
    turns: [
      { say: '다음 주 목요일 오전 11시 종로에서 목동까지', set: { 날짜: '2026-03-19', '탑승 시간': '11:00', 출발지: '종로', 목적지: '목동' } },
      { say: '여의도도 들러주세요', set: { 경유지: ['여의도'] } },
    ],
  },
  {
    id: 'waypoint-inline',
    turns: [
      { say: '내일 오전 9시 마포에서 영등포 경유해서 구로까지', set: { 날짜: '2026-03-12', '탑승 시간': '09:00', 출발지: '마포', 경유지: ['영등포'], 목적지: '구로' } },
      { say: '2명', set: { '탑승 인원': 2 } },
    ],
  },
  {
    id: 'waypoint-two',
    turns: [
      { say: '다음 주 금요일 오전 10시 호텔신라에서 출발해서 남산타워, 명동 들러서 이태원까지 4명', set: { 날짜: '2026-03-20', '탑승 시간': '10:00', 출발지: '호텔신라', 경유지: ['남산타워', '명동'], 목적지: '이태원', '탑승 인원': 4 } },
      { say: 'G클래스로 할게요', set: { 차량: G_CLASS } },
    ],
  },
  {
    id: 'waypoint-arrow',
    turns: [
      { say: '모레 오후 1시 김포공항 → 광화문 → 잠실', set: { 날짜: '2026-03-13', '탑승 시간': '13:00', 출발지: '김포공항', 경유지: ['광화문'], 목적지: '잠실' } },
      { say: '세 명', set: { '탑승 인원': 3 } },
    ],
  },
  {
    id: 'waypoint-typo',
    turns: [
      { say: '다음 주 화요일 오전 11시 강남역에서 여의도까지', set: { 날짜: '2026-03-17', '탑승 시간': '11:00', 출발지: '강남역', 목적지: '여의도' } },
      { say: '코엑스도 들려줘', set: { 경유지: ['코엑스'] } },
      { say: '롯데월드도 들렀다가 가줘', set: { 경유지: ['코엑스', '롯데월드'] } },
    ],
  },
  {
    id: 'waypoint-labelled-then-none',
    turns: [
      { say: '3월 27일 오전 10시 서울역에서 인천공항까지', set: { 날짜: '2026-03-27', '탑승 시간': '10:00', 출발지: '서울역', 목적지: '인천공항' } },
      { say: '경유지는 코엑스랑 롯데월드', set: { 경유지: ['코엑스', '롯데월드'] } },
      { say: '경유지 없이 갈게요', set: { 경유지: null } },
    ],
  },
  {
    id: 'waypoint-e-do',
    turns: [
      { say: '다음 주 금요일 오후 3시 명동에서 홍대까지', set: { 날짜: '2026-03-20', '탑승 시간': '15:00', 출발지: '명동', 목적지: '홍대' } },
      { say: '남산타워에도 들렀다 가주세요', set: { 경유지: ['남산타워'] } },
    ],
  },
  {
    id: 'waypoint-middle',
    turns: [
      { say: '내일 오전 10시 반 여의도에서 출발해서 판교로 가요', set: { 날짜: '2026-03-12', '탑승 시간': '10:30', 출발지: '여의도', 목적지: '판교' } },
      { say: '중간에 양재역 들러주세요', set: { 경유지: ['양재역'] } },
      { say: '인원 2명', set: { '탑승 인원': 2 } },
    ],
  },

  // ── weekdays and relative days from the agreed date ──
  {
    id: 'weekday-typo',
    turns: [
      { say: '다음 주 화요일 오후 5시 홍대에서 합정까지', set: { 날짜: '2026-03-17', '탑승 시간': '17:00', 출발지: '홍대', 목적지: '합정' } },
      { say: '토욜로 바꿔줘', set: { 날짜: '2026-03-21' }, dateWarning: true },
    ],
  },
  {
    id: 'weekday-keeps-car',
    turns: [
      { say: '다음 주 화요일 오전 10시 강남에서 송도까지 2명 G90으로', set: { 날짜: '2026-03-17', '탑승 시간': '10:00', 출발지: '강남', 목적지: '송도', '탑승 인원': 2, 차량: G90 } },
      { say: '금요일로 바꿔줘', set: { 날짜: '2026-03-20' }, dateWarning: true },
      { say: '3명으로 변경해주세요', set: { '탑승 인원': 3 } },
    ],
  },
  {
    id: 'weekday-monday',
    turns: [
      { say: '내일 오후 1시 반포에서 여의도까지', set: { 날짜: '2026-03-12', '탑승 시간': '13:00', 출발지: '반포', 목적지: '여의도' } },
      { say: '월요일로 옮겨주세요', set: { 날짜: '2026-03-16' }, dateWarning: true },
    ],
  },
  {
    id: 'weekday-no-space',
    turns: [
      { say: '3월 25일 오전 9시 잠실에서 김포공항까지 2명', set: { 날짜: '2026-03-25', '탑승 시간': '09:00', 출발지: '잠실', 목적지: '김포공항', '탑승 인원': 2 } },
      { say: '금요일로바꿔줘', set: { 날짜: '2026-03-27' }, dateWarning: true },
    ],
  },
  {
    id: 'next-day',
    turns: [
      { say: '3월 18일 오전 7시 인천공항에서 판교까지 1명', set: { 날짜: '2026-03-18', '탑승 시간': '07:00', 출발지: '인천공항', 목적지: '판교', '탑승 인원': 1 } },
      { say: '다음 날로 바꿔주세요', set: { 날짜: '2026-03-19' }, dateWarning: true },
    ],
  },
  {
    id: 'postpone-one-day',
    turns: [
      { say: '다음 주 월요일 오후 2시 서울역에서 대전역까지', set: { 날짜: '2026-03-16', '탑승 시간': '14:00', 출발지: '서울역', 목적지: '대전역' } },
      { say: '하루 미뤄주세요', set: { 날짜: '2026-03-17' }, dateWarning: true },
    ],
  },
  {
    id: 'postpone-two-days',
    turns: [
      { say: '모레 오전 10시 강남역에서 수원까지', set: { 날짜: '2026-03-13', '탑승 시간': '10:00', 출발지: '강남역', 목적지: '수원' } },
      { say: '이틀 뒤로 미뤄줘', set: { 날짜: '2026-03-15' }, dateWarning: true },
    ],
  },
  {
    id: 'explicit-date-change',
    turns: [
      { say: '내일 오후 1시 종로에서 강남까지 2명', set: { 날짜: '2026-03-12', '탑승 시간': '13:00', 출발지: '종로', 목적지: '강남', '탑승 인원': 2 } },
      { say: '3월 20일로 바꿔줘', set: { 날짜: '2026-03-20' }, dateWarning: true },
      { say: '오후 2시로 할게요', set: { '탑승 시간': '14:00' } },
    ],
  },
  {
    id: 'weekday-first-turn',
    turns: [
      { say: '금요일 오후 3시 압구정에서 청담까지', set: { 날짜: '2026-03-13', '탑승 시간': '15:00', 출발지: '압구정', 목적지: '청담' } },
      { say: '일요일로 바꿀게요', set: { 날짜: '2026-03-15' }, dateWarning: true },
    ],
  },

  // ── quotes for this trip ──
  {
    id: 'quote-span',
    turns: [
      { say: '내일 오전 9시부터 오후 7시까지 G90', set: { 날짜: '2026-03-12', '탑승 시간': '09:00', '이용 시간': 10, 차량: G90 } },
      { say: '얼마예요?', quote: 680_000 },
    ],
  },
  {
    id: 'quote-eight-hours',
    turns: [
      { say: '모레 오전 10시 광화문에서 판교까지 i7으로 2명', set: { 날짜: '2026-03-13', '탑승 시간': '10:00', 출발지: '광화문', 목적지: '판교', 차량: I7, '탑승 인원': 2 } },
      { say: '요금 얼마에요', quote: 700_000 },
    ],
  },
  {
    id: 'quote-full-day',
    turns: [
      { say: '다음 주 목요일 하루종일 벤테이가로', set: { 날짜: '2026-03-19', '탑승 시간': '09:00', '이용 시간': 12, 차량: BENTAYGA } },
      { say: '견적 알려줘', quote: 1_620_000 },
    ],
  },
  {
    id: 'quote-after-car-change',
    turns: [
      { say: '다음 주 수요일 오후 6시 청담동에서 잠실까지 3명 카니발', set: { 날짜: '2026-03-18', '탑승 시간': '18:00', 출발지: '청담동', 목적지: '잠실', '탑승 인원': 3, 차량: CARNIVAL } },
      { say: '3시간 쓸게요', set: { '이용 시간': 3 } },
      { say: '고스트로 바꿀게요', set: { 차량: GHOST } },
      { say: '그럼 얼마야', quote: 1_800_000 },
    ],
  },
  {
    id: 'quote-typo',
    turns: [
      { say: '내일 오후 2시 강남역에서 인천공항까지 컬리넌 4명', set: { 날짜: '2026-03-12', '탑승 시간': '14:00', 출발지: '강남역', 목적지: '인천공항', 차량: CULLINAN, '탑승 인원': 4 } },
      { say: '9시간 쓰려고요', set: { '이용 시간': 9 } },
      { say: '얼마임?', quote: 2_220_000 },
    ],
  },
  {
    id: 'quote-overtime-rate',
    turns: [
      { say: '다음 주 월요일 오전 8시부터 오후 6시까지 고스트로', set: { 날짜: '2026-03-16', '탑승 시간': '08:00', '이용 시간': 10, 차량: GHOST } },
      { say: '총 비용이 어떻게 되나요?', quote: 2_160_000 },
    ],
  },

  // ── starting over, cancelling, a person ──
  {
    id: 'start-over',
    turns: [
      { say: '다음 주 금요일 오후 2시 강남역에서 인천공항까지', set: { 날짜: '2026-03-20', '탑승 시간': '14:00', 출발지: '강남역', 목적지: '인천공항' } },
      { say: '처음부터 다시', reset: true },
      { say: '내일 오전 8시 판교에서 김포공항까지', set: { 날짜: '2026-03-12', '탑승 시간': '08:00', 출발지: '판교', 목적지: '김포공항' } },
    ],
  },
  {
    id: 'start-over-no-space',
    turns: [
      { say: '모레 오후 5시 서울역에서 용산까지 2명', set: { 날짜: '2026-03-13', '탑승 시간': '17:00', 출발지: '서울역', 목적지: '용산', '탑승 인원': 2 } },
      { say: '처음부터다시할게요', reset: true },
    ],
  },
  {
    id: 'cancel-polite',
    turns: [
      { say: '다음 주 화요일 오전 10시 잠실에서 분당까지 3명 카니발', set: { 날짜: '2026-03-17', '탑승 시간': '10:00', 출발지: '잠실', 목적지: '분당', '탑승 인원': 3, 차량: CARNIVAL } },
      { say: '취소할게요', reset: true },
    ],
  },
  {
    id: 'cancel-booking',
    turns: [
      { say: '내일 오후 6시 이태원에서 한남동까지', set: { 날짜: '2026-03-12', '탑승 시간': '18:00', 출발지: '이태원', 목적지: '한남동' } },
      { say: '예약 취소해주세요', reset: true },
    ],
  },
  {
    id: 'cancel-all',
    turns: [
      { say: '3월 26일 오전 9시 김포공항에서 마곡까지 1명', set: { 날짜: '2026-03-26', '탑승 시간': '09:00', 출발지: '김포공항', 목적지: '마곡', '탑승 인원': 1 } },
      { say: '다 취소해줘', reset: true },
      { say: '다음 주 월요일', set: { 날짜: '2026-03-16' } },
    ],
  },
  {
    id: 'cancel-typo',
    turns: [
      { say: '모레 오후 3시 역삼역에서 선릉역까지', set: { 날짜: '2026-03-13', '탑승 시간': '15:00', 출발지: '역삼역', 목적지: '선릉역' } },
      { say: '취소요', reset: true },
    ],
  },
  {
    id: 'reset-word',
    turns: [
      { say: '내일 오전 11시 강남에서 과천까지 2명', set: { 날짜: '2026-03-12', '탑승 시간': '11:00', 출발지: '강남', 목적지: '과천', '탑승 인원': 2 } },
      { say: '초기화해줘', reset: true },
    ],
  },
  {
    id: 'handover',
    turns: [
      { say: '내일 오후 2시 강남역에서 판교까지 3명', set: { 날짜: '2026-03-12', '탑승 시간': '14:00', 출발지: '강남역', 목적지: '판교', '탑승 인원': 3 } },
      { say: '상담원 연결해주세요', handover: true },
    ],
  },
  {
    id: 'handover-no-space',
    turns: [
      { say: '다음 주 금요일 오전 10시', set: { 날짜: '2026-03-20', '탑승 시간': '10:00' } },
      { say: '상담원연결', handover: true },
      { say: '서울역', set: { 출발지: '서울역' } },
    ],
  },
  {
    id: 'handover-person',
    turns: [
      { say: '모레 오후 4시 광화문에서 인천공항까지', set: { 날짜: '2026-03-13', '탑승 시간': '16:00', 출발지: '광화문', 목적지: '인천공항' } },
      { say: '사람이랑 얘기하고 싶어요', handover: true },
    ],
  },
  {
    id: 'handover-staff',
    turns: [
      { say: '3월 23일 오전 9시 잠실에서 여의도까지 2명', set: { 날짜: '2026-03-23', '탑승 시간': '09:00', 출발지: '잠실', 목적지: '여의도', '탑승 인원': 2 } },
      { say: '직원 연결 부탁드려요', handover: true },
    ],
  },
  {
    id: 'handover-counsellor',
    turns: [
      { say: '상담사 불러주세요', handover: true },
      { say: '내일 오후 3시', set: { 날짜: '2026-03-12', '탑승 시간': '15:00' } },
    ],
  },

  // ── keeping what was agreed, changing only what changed ──
  {
    id: 'passengers-change',
    turns: [
      { say: '다음 주 화요일 오전 10시 반 롯데호텔에서 인천공항까지 2명', set: { 날짜: '2026-03-17', '탑승 시간': '10:30', 출발지: '롯데호텔', 목적지: '인천공항', '탑승 인원': 2 } },
      { say: '아 3명으로 바꿔주세요', set: { '탑승 인원': 3 } },
      { say: '인원 5명으로 수정', set: { '탑승 인원': 5 } },
    ],
  },
  {
    id: 'destination-change',
    turns: [
      { say: '내일 오후 1시 서울역에서 강남역까지 2명', set: { 날짜: '2026-03-12', '탑승 시간': '13:00', 출발지: '서울역', 목적지: '강남역', '탑승 인원': 2 } },
      { say: '목적지를 잠실역으로 바꿔줘', set: { 목적지: '잠실역' } },
      { say: 'S클래스로 해주세요', set: { 차량: S } },
    ],
  },
  {
    id: 'origin-change',
    turns: [
      { say: '모레 오전 9시 용산에서 판교까지', set: { 날짜: '2026-03-13', '탑승 시간': '09:00', 출발지: '용산', 목적지: '판교' } },
      { say: '출발지는 서울역으로 변경할게요', set: { 출발지: '서울역' } },
    ],
  },
  {
    id: 'time-change-half',
    turns: [
      { say: '다음 주 목요일 오전 10시 청담에서 인천공항까지 2명 마이바흐', set: { 날짜: '2026-03-19', '탑승 시간': '10:00', 출발지: '청담', 목적지: '인천공항', '탑승 인원': 2, 차량: 'Mercedes Benz Maybach S-Class' } },
      { say: '오후 4시 반으로 변경해주세요', set: { '탑승 시간': '16:30' } },
      { say: '이대로 예약할게요' },
    ],
  },
  {
    id: 'no-spaces',
    turns: [
      { say: '내일오후2시에인천공항에서강남역까지', set: { 날짜: '2026-03-12', '탑승 시간': '14:00', 출발지: '인천공항', 목적지: '강남역' } },
      { say: '3명이요', set: { '탑승 인원': 3 } },
    ],
  },
  {
    id: 'week-no-space',
    turns: [
      { say: '다음주금요일 오전10시 잠실에서 분당까지 3명', set: { 날짜: '2026-03-20', '탑승 시간': '10:00', 출발지: '잠실', 목적지: '분당', '탑승 인원': 3 } },
      { say: '2시간만 쓸게요', set: { '이용 시간': 2 } },
    ],
  },
  {
    id: 'one-question-at-a-time',
    turns: [
      { say: '안녕하세요' },
      { say: '내일', set: { 날짜: '2026-03-12' } },
      { say: '오전 9시', set: { '탑승 시간': '09:00' } },
      { say: '강남역', set: { 출발지: '강남역' } },
      { say: '김포공항', set: { 목적지: '김포공항' } },
      { say: '두 명', set: { '탑승 인원': 2 } },
      { say: 'G90으로', set: { 차량: G90 } },
    ],
  },
  {
    id: 'wedding',
    turns: [
      { say: '다음 주 토요일 결혼식이라 오전 10시에 신라호텔에서 출발해요', set: { 날짜: '2026-03-21', '탑승 시간': '10:00', 출발지: '신라호텔', 목적: '웨딩' } },
      { say: '목적지는 워커힐호텔', set: { 목적지: '워커힐호텔' } },
      { say: '4명, 카니발로', set: { '탑승 인원': 4, 차량: CARNIVAL } },
    ],
  },
  {
    id: 'manager',
    turns: [
      { say: '3월 30일 오후 2시 서초에서 강남까지', set: { 날짜: '2026-03-30', '탑승 시간': '14:00', 출발지: '서초', 목적지: '강남' } },
      { say: '담당자는 김민수 010-1234-5678', set: { 담당자: '김민수 010-1234-5678' } },
      { say: '2명', set: { '탑승 인원': 2 } },
    ],
  },
  {
    id: 'native-passengers',
    turns: [
      { say: '모레 오전 11시 청계천에서 북한산까지', set: { 날짜: '2026-03-13', '탑승 시간': '11:00', 출발지: '청계천', 목적지: '북한산' } },
      { say: '셋이서 가요', set: { '탑승 인원': 3 } },
      { say: '다섯 명으로 바꿀게요', set: { '탑승 인원': 5 } },
    ],
  },
  {
    id: 'adults-children',
    turns: [
      { say: '다음 주 일요일 오전 10시 일산에서 에버랜드까지', set: { 날짜: '2026-03-22', '탑승 시간': '10:00', 출발지: '일산', 목적지: '에버랜드' } },
      { say: '성인 2명 아이 1명', set: { '탑승 인원': 3 } },
      { say: '4시간 쓸게요', set: { '이용 시간': 4 } },
    ],
  },
  {
    id: 'golf',
    turns: [
      { say: '3월 28일 새벽 6시 반포에서 남서울CC까지 골프 라운딩', set: { 날짜: '2026-03-28', '탑승 시간': '06:00', 출발지: '반포', 목적지: '남서울CC', 목적: '골프' } },
      { say: '3명 G클래스', set: { '탑승 인원': 3, 차량: G_CLASS } },
      { say: '10시간', set: { '이용 시간': 10 } },
    ],
  },

  // ── batch 2: written after the first fixes, run once before any further change (see docs/decisions/chat-assistant.md) ──
  {
    id: 'b2-evening-half',
    turns: [
      { say: '담주 수요일 저녁 7시 반에 워커힐에서 출발해 청담동으로 갈게요', set: { 날짜: '2026-03-18', '탑승 시간': '19:30', 출발지: '워커힐', 목적지: '청담동' } },
      { say: '인원은 셋', set: { '탑승 인원': 3 } },
      { say: '두 시간 정도면 돼요', set: { '이용 시간': 2 } },
    ],
  },
  {
    id: 'b2-airport-pickup',
    turns: [
      { say: '이번주 토요일 오전 11시 김포공항 국내선에서 픽업 부탁드려요', set: { 날짜: '2026-03-14', '탑승 시간': '11:00', 출발지: '김포공항 국내선', 목적: '공항 픽업' } },
      { say: '목적지는 판교 현대백화점', set: { 목적지: '판교 현대백화점' } },
      { say: '4시간 반', set: { '이용 시간': 4.5 } },
    ],
  },
  {
    id: 'b2-add-waypoint-label',
    turns: [
      { say: '내일 오후 3시', set: { 날짜: '2026-03-12', '탑승 시간': '15:00' } },
      { say: '코엑스 출발', set: { 출발지: '코엑스' } },
      { say: '목적지 광화문', set: { 목적지: '광화문' } },
      { say: '경유지로 시청 추가해 주세요', set: { 경유지: ['시청'] } },
    ],
  },
  {
    id: 'b2-noon-sunday',
    turns: [
      { say: '모레 정오에 서울역에서 인천공항 제1터미널까지 갑니다', set: { 날짜: '2026-03-13', '탑승 시간': '12:00', 출발지: '서울역', 목적지: '인천공항 제1터미널' } },
      { say: '아 그리고 일요일로 바꿀게요', set: { 날짜: '2026-03-15' }, dateWarning: true },
      { say: '2명이에요', set: { '탑승 인원': 2 } },
    ],
  },
  {
    id: 'b2-went-then',
    turns: [
      { say: '다음 주 금요일 아침 8시 반포자이에서 출발해서 잠실 롯데월드타워 갔다가 여의도 IFC까지', set: { 날짜: '2026-03-20', '탑승 시간': '08:00', 출발지: '반포자이', 경유지: ['잠실 롯데월드타워'], 목적지: '여의도 IFC' } },
      { say: '3명', set: { '탑승 인원': 3 } },
    ],
  },
  {
    id: 'b2-slash-date-span',
    turns: [
      { say: '3/19 오후 1시 ~ 오후 6시', set: { 날짜: '2026-03-19', '탑승 시간': '13:00', '이용 시간': 5 } },
      { say: '출발은 강남역이고 도착은 수원역', set: { 출발지: '강남역', 목적지: '수원역' } },
    ],
  },
  {
    id: 'b2-bare-span',
    turns: [
      { say: '내일 10시부터 3시까지 쓸게요', set: { 날짜: '2026-03-12', '탑승 시간': '10:00', '이용 시간': 5 } },
      { say: '여의도에서 잠실까지 2명', set: { 출발지: '여의도', 목적지: '잠실', '탑승 인원': 2 } },
    ],
  },
  {
    id: 'b2-one-hour-today',
    turns: [
      { say: '오늘 오후 3시 명동에서 남산까지', set: { 날짜: '2026-03-11', '탑승 시간': '15:00', 출발지: '명동', 목적지: '남산' } },
      { say: '한 시간만 쓸게요', set: { '이용 시간': 1 } },
      { say: '취소할께요', reset: true },
    ],
  },
  {
    id: 'b2-handover-call',
    turns: [
      { say: '다음 주 월욜 9시 양재에서 판교', set: { 날짜: '2026-03-16', '탑승 시간': '09:00', 출발지: '양재', 목적지: '판교' } },
      { say: '사흘 미뤄주세요', set: { 날짜: '2026-03-19' }, dateWarning: true },
      { say: '상담원이랑 통화하고 싶어요', handover: true },
    ],
  },
  {
    id: 'b2-back-to-start',
    turns: [
      { say: '3월 21일 오후 2시 홍대에서 연남동까지', set: { 날짜: '2026-03-21', '탑승 시간': '14:00', 출발지: '홍대', 목적지: '연남동' } },
      { say: '처음으로 돌아갈래요', reset: true },
    ],
  },
  {
    id: 'b2-quote-six-hours',
    turns: [
      { say: '다음 주 화요일 오전 9시 G90 6시간', set: { 날짜: '2026-03-17', '탑승 시간': '09:00', 차량: G90, '이용 시간': 6 } },
      { say: '요금 알려주세요', quote: 550_000 },
    ],
  },
  {
    id: 'b2-luggage-memo',
    turns: [
      { say: '내일 오후 5시 서울역에서 인천공항까지 2명', set: { 날짜: '2026-03-12', '탑승 시간': '17:00', 출발지: '서울역', 목적지: '인천공항', '탑승 인원': 2 } },
      { say: '캐리어 3개 실을 수 있게 해주세요', set: { 메모: '캐리어 3개 실을 수 있게 해주세요' } },
      { say: '카니발로요', set: { 차량: CARNIVAL } },
    ],
  },
];
