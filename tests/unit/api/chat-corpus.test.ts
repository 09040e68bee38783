import { describe, expect, it } from 'vitest';
import { respond, type DialogueContext } from '../../../src/api/chat/dialogue';
import { asksForPerson } from '../../../src/api/chat/handoff';
import { formatDateKo } from '../../../src/domain/chat/format';
import { stateToPrefill } from '../../../src/domain/chat/prefill';
import { applyUpdates, type BookingState } from '../../../src/domain/chat/state';
import { won } from '../../../src/domain/money';
import { FLEET, NOW, TODAY } from './chat-fleet';
import { CONVERSATIONS, NAMED_FAILURES, SLOTS, type Conversation, type CorpusTurn, type Slot, type Slots } from './chat-corpus/conversations';

const ctx: DialogueContext = { now: NOW, fleet: FLEET };

/** The memo's line that carries the hours (하루종일 이용: … / 이용 시간: …), left out of the memo slot. */
const HOURS_LINE = /(?:하루종일 이용|이용 시간): [^/]*?\(?\d{1,2}시간(?: \d{1,2}분)?\)?(?: \/ |$)/;

/** What the corpus compares: the booking as the reservation form will get it. */
function slotsOf(state: BookingState): Slots {
  const memo = state.메모?.replace(HOURS_LINE, '').trim();
  const out: Slots = {
    날짜: state.날짜,
    '탑승 시간': state['탑승 시간'],
    '이용 시간': stateToPrefill(state).hours,
    출발지: state.출발지,
    목적지: state.목적지,
    경유지: state.경유지?.length ? state.경유지 : undefined,
    '탑승 인원': state['탑승 인원'],
    차량: state.차량,
    목적: state.목적,
    담당자: state.담당자,
    메모: memo || undefined,
  };
  return out;
}

function expectedAfter(before: Slots, turn: CorpusTurn): Slots {
  const next: Slots = turn.reset ? {} : { ...before };
  for (const [k, v] of Object.entries(turn.set ?? {}) as Array<[Slot, unknown]>) {
    if (v === null) delete next[k];
    else Object.assign(next, { [k]: v });
  }
  return next;
}

type Check = 'quote' | 'reset' | 'handover' | 'dateWarning';
interface TurnResult {
  conversation: string;
  turn: number;
  say: string;
  slots: Partial<Record<Slot, { ok: boolean; expected: unknown; actual: unknown }>>;
  checks: Partial<Record<Check, boolean>>;
  text: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Plays a conversation through the real dialogue and scores every turn. */
function play(conv: Conversation): TurnResult[] {
  let state: BookingState = {};
  let expected: Slots = {};
  return conv.turns.map((turn, i) => {
    const before = state;
    const reply = respond(turn.say, state, ctx);
    state = applyUpdates(state, reply.updates);
    expected = expectedAfter(expected, turn);
    const actual = slotsOf(state);
    const slots: TurnResult['slots'] = {};
    for (const slot of SLOTS) {
      if (expected[slot] === undefined && actual[slot] === undefined) continue;
      slots[slot] = { ok: same(expected[slot], actual[slot]), expected: expected[slot], actual: actual[slot] };
    }
    const understood = !reply.text.includes('이해하지 못했습니다');
    const checks: TurnResult['checks'] = {};
    if (turn.quote !== undefined) checks.quote = reply.text.includes(won(turn.quote)) && reply.text.includes('예상 요금') && !reply.text.includes('차량별 요금입니다');
    if (turn.reset) checks.reset = understood && Object.keys(state).length === Object.keys(turn.set ?? {}).length;
    if (turn.handover) checks.handover = asksForPerson(turn.say) && understood;
    if (turn.dateWarning) {
      checks.dateWarning = !!before.날짜 && !!state.날짜 && reply.text.includes(`날짜를 ${formatDateKo(before.날짜, TODAY)}에서 ${formatDateKo(state.날짜, TODAY)}`);
    }
    return { conversation: conv.id, turn: i + 1, say: turn.say, slots, checks, text: reply.text };
  });
}

const results = CONVERSATIONS.flatMap(play);

function table(rows: TurnResult[]) {
  const score = new Map<string, { ok: number; all: number }>();
  const add = (key: string, ok: boolean) => {
    const s = score.get(key) ?? { ok: 0, all: 0 };
    s.all += 1;
    if (ok) s.ok += 1;
    score.set(key, s);
  };
  for (const r of rows) {
    for (const [slot, v] of Object.entries(r.slots)) add(slot, v.ok);
    for (const [check, ok] of Object.entries(r.checks)) add(`(${check})`, ok);
  }
  return score;
}

const pct = (s: { ok: number; all: number }) => (100 * s.ok) / s.all;

function failures(rows: TurnResult[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    for (const [slot, v] of Object.entries(r.slots)) if (!v.ok) out.push(`${r.conversation}#${r.turn} "${r.say}" ${slot}: expected ${JSON.stringify(v.expected)}, got ${JSON.stringify(v.actual)}`);
    for (const [check, ok] of Object.entries(r.checks)) if (!ok) out.push(`${r.conversation}#${r.turn} "${r.say}" (${check}) not met: ${r.text.replace(/\n+/g, ' | ').slice(0, 200)}`);
  }
  return out;
}

describe('the chat corpus (Wednesday 2026-03-11 10:00, the seed fleet)', () => {
  it('holds at least 60 conversations of 2–7 turns', () => {
    expect(CONVERSATIONS.length).toBeGreaterThanOrEqual(60);
    for (const c of CONVERSATIONS) expect(c.turns.length, c.id).toBeGreaterThanOrEqual(2);
    for (const c of CONVERSATIONS) expect(c.turns.length, c.id).toBeLessThanOrEqual(7);
    expect(new Set(CONVERSATIONS.map((c) => c.id)).size).toBe(CONVERSATIONS.length);
  });

  it('reads every slot at 95% or better, and every reply duty (quote, reset, handover, date warning)', () => {
    const score = table(results);
    const lines = [...score].map(([key, s]) => `${key.padEnd(14)} ${String(s.ok).padStart(4)}/${String(s.all).padEnd(4)} ${pct(s).toFixed(1)}%`);
    const all = [...score.values()].reduce((a, s) => ({ ok: a.ok + s.ok, all: a.all + s.all }), { ok: 0, all: 0 });
    console.log(`chat corpus: ${CONVERSATIONS.length} conversations, ${results.length} turns\n${lines.join('\n')}\n${'overall'.padEnd(14)} ${all.ok}/${all.all} ${pct(all).toFixed(1)}%`);
    const below = [...score].filter(([, s]) => pct(s) < 95).map(([k]) => k);
    expect(below, failures(results).join('\n')).toEqual([]);
  });

  const named: Array<[string, string]> = [
    ['a duration given in hours is kept (the form gets start + those hours)', NAMED_FAILURES.hours],
    ['a waypoint comes out without its particle (코엑스에 들렀다가, 광화문도 들러줘)', NAMED_FAILURES.waypoint],
    ['"토요일로 바꿔줘" moves forward from the agreed day and says so', NAMED_FAILURES.weekday],
    ['"얼마야?" quotes this trip, not the price list', NAMED_FAILURES.quote],
    ['"취소" starts over', NAMED_FAILURES.cancel],
  ];
  for (const [title, id] of named) {
    it(`issue 50: ${title}`, () => {
      const conv = CONVERSATIONS.find((c) => c.id === id)!;
      expect(failures(play(conv))).toEqual([]);
    });
  }

  it('hands the form the hours the customer gave', () => {
    const conv = CONVERSATIONS.find((c) => c.id === NAMED_FAILURES.hours)!;
    let state: BookingState = {};
    for (const t of conv.turns) state = applyUpdates(state, respond(t.say, state, ctx).updates);
    expect(stateToPrefill(state)).toMatchObject({ date: '2026-03-20', time: '15:00', hours: 3, carId: 9 });
  });
});
