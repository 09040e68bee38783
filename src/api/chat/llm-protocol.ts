import { MAX_TRIP_HOURS, overtimeRate } from '../../domain/butler';
import { MAX_ADVANCE_DAYS } from '../../domain/butler-calendar';
import { koreaDate, koreaTime } from '../../domain/dates';
import { carName, carSeats, type ChatCar } from '../../domain/chat/fleet';
import { formatDateKo, formatTimeKo } from '../../domain/chat/format';
import { endText, FULL_DAY_HOURS, FULL_DAY_START, fullDayLine, hoursLine } from '../../domain/chat/full-day';
import { validateUpdates } from './schemas';
import { REQUIRED_KEYS, UI_TRIGGERS, type BookingState, type BookingUpdates, type UiTrigger } from '../../domain/chat/state';

/**
 * How an OpenAI-compatible model talks to the chat: it answers the customer in Korean and ends
 * with one fenced block (```booking … ```) holding JSON {updates, ui_triggers, next_prompt}.
 * The text before the fence streams to the page; the block never does, and its updates pass
 * the same zod schemas as the local assistant's before they reach the state.
 */
const LLM_FENCE = '```';

export interface LlmMessage {
  role: 'system' | 'user';
  content: string;
}

/** The system and user messages for one turn: today, the pricing rule, the fleet, the state and the parser's hints. */
export function buildLlmMessages(input: { message: string; state: BookingState; fleet: ChatCar[]; now: Date; hints: BookingUpdates }): LlmMessage[] {
  const today = koreaDate(input.now);
  const fleet = input.fleet.map((c) => ({
    '차량 번호': c.id,
    이름: carName(c),
    세부모델: c.sub_model,
    좌석: carSeats(c),
    '8시간 요금': c.butler_fee,
    '초과 1시간 요금': overtimeRate(c),
    '예약된 날': c.butler_reservated_dates.slice(0, 30),
  }));
  const system = [
    '당신은 LUXE 의전(기사 포함 차량) 서비스의 예약 도우미입니다. 항상 한국어 존댓말로 짧고 정확하게 답하세요.',
    `오늘은 ${formatDateKo(today)}, 한국 시간 ${koreaTime(input.now)}입니다. 날짜는 YYYY-MM-DD, 시간은 24시간제 HH:MM으로 기록하세요.`,
    '요금: 8시간 기준 요금이며, 8시간을 넘으면 시작된 1시간마다 차량의 초과 1시간 요금이 붙습니다. 목록에 없는 차량·요금·할인을 지어내지 마세요.',
    `차량 목록(JSON): ${JSON.stringify(fleet)}`,
    `현재 예약 정보(JSON): ${JSON.stringify(input.state)}`,
    `예약에 필요한 항목은 ${REQUIRED_KEYS.join(', ')}입니다. 빠진 항목은 한 번에 하나씩 물어보세요. 예약된 날에는 그 차량을 고를 수 없습니다. 탑승 인원은 1~20명입니다.`,
    `지난 날짜(어제, 그저께 등)나 오늘 이미 지난 시간은 기록하지 말고, 지난 날짜·시간이라고 말한 뒤 다른 날짜·시간을 물어보세요. 예약은 오늘부터 ${MAX_ADVANCE_DAYS}일 이내, 이용 시간은 최대 ${MAX_TRIP_HOURS}시간입니다.`,
    `'하루종일'(종일, 온종일, 하루 대절)은 따로 말한 시간이 없으면 ${formatTimeKo(FULL_DAY_START)}부터 ${endText(FULL_DAY_START, FULL_DAY_HOURS)}까지 ${FULL_DAY_HOURS}시간 이용으로 보고, 탑승 시간과 메모에 "${fullDayLine(FULL_DAY_START, FULL_DAY_HOURS)}" 형식으로 적은 뒤 몇 시부터 몇 시까지인지 답하세요.`,
    `이용 시간을 말하면(3시간, 세 시간, 오후 2시부터 5시까지) 메모에 "${hoursLine('14:00', 3)}" 형식으로 적으세요. 이미 정한 날짜가 있을 때 요일만 말하면(토요일로 바꿔줘) 그 날짜 다음에 오는 그 요일로 바꾸고, 날짜가 바뀌었다고 알려주세요. 요금을 물으면 정한 차량과 이용 시간으로 이번 일정의 요금을 답하세요.`,
    "예약을 직접 확정하지 마세요. 정보가 다 모이면 '이 내용으로 예약하기' 버튼으로 예약 신청서에서 결제와 함께 진행된다고 안내하세요.",
    '답변 끝에 반드시 아래 형식의 블록을 하나 붙이세요. 이 블록은 고객에게 보이지 않습니다.',
    '```booking\n{"updates": {"날짜": "2026-12-03", "탑승 시간": "14:30", "출발지": "…", "목적지": "…", "탑승 인원": 3, "차량 번호": 1, "경유지": ["…"], "목적": "…", "메모": "…", "담당자": "…"}, "ui_triggers": [], "next_prompt": "다음 질문 또는 null"}\n```',
    `updates에는 이번 메시지로 바뀐 항목만 넣고 지울 항목은 null로 하세요. ui_triggers는 ${UI_TRIGGERS.map((t) => `"${t}"`).join(', ')} 중에서 고르세요 (fleet: 차량 보기, pricing: 요금 안내, reserve: 정보가 다 모였을 때 예약하기, my: 마이페이지).`,
  ].join('\n');
  const user = `${input.message}\n\n(자동 분석 참고: ${JSON.stringify(input.hints)})`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/**
 * Splits a streamed answer into the text the customer sees and the fenced block: push each
 * chunk and send what it returns; a chunk ending in backticks is held until the next shows
 * whether a fence begins.
 */
export class FenceSplitter {
  private pending = '';
  private block: string | null = null;

  /** The visible part of this chunk (may be empty). */
  push(chunk: string): string {
    if (this.block !== null) {
      this.block += chunk;
      return '';
    }
    const text = this.pending + chunk;
    const at = text.indexOf(LLM_FENCE);
    if (at >= 0) {
      this.block = text.slice(at);
      this.pending = '';
      return text.slice(0, at);
    }
    const hold = text.match(/`{1,2}$/)?.[0].length ?? 0;
    this.pending = text.slice(text.length - hold);
    return text.slice(0, text.length - hold);
  }

  /** What was held back and the block, once the stream has ended. */
  end(): { rest: string; block: string | null } {
    const rest = this.pending;
    this.pending = '';
    return { rest, block: this.block };
  }
}

/** The block's JSON, validated: known triggers only, updates key by key through the state schema; null when unreadable. */
export function parseLlmBlock(block: string | null): { updates: BookingUpdates; ui_triggers: UiTrigger[]; next_prompt: string | null } | null {
  if (!block) return null;
  const body = block.replace(/^```[a-zA-Z]*\s*/, '').replace(/```[\s\S]*$/, '').trim();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  const triggers = Array.isArray(o.ui_triggers) ? o.ui_triggers.filter((t): t is UiTrigger => (UI_TRIGGERS as readonly unknown[]).includes(t)) : [];
  const next = typeof o.next_prompt === 'string' && o.next_prompt.trim() && o.next_prompt !== 'null' ? o.next_prompt.trim().slice(0, 300) : null;
  return { updates: validateUpdates(o.updates ?? {}), ui_triggers: [...new Set(triggers)], next_prompt: next };
}
