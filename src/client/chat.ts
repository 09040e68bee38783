import { sanitizeUpdates, UI_TRIGGERS, type BookingState, type BookingUpdates, type UiTrigger } from '../domain/chat/state';
import { $session } from '../stores/session';
import { asRecord } from '../domain/json';
import { sseJson } from '../domain/sse';
import { API_BASE, type ApiPath } from './api';
import { freshSession } from './keep-alive';

/** The chat endpoint (spec §7: POST to the /services/gpt/1 path). */
const CHAT_PATH = '/services/gpt/1' satisfies ApiPath;
/** The page gives up on an answer after this long; the server ends its own at 20 s. */
const CHAT_TIMEOUT_MS = 45_000;

interface ChatAnswer {
  text: string;
  updates: BookingUpdates;
  ui_triggers: UiTrigger[];
  next_prompt: string | null;
}

/** 'error': the call failed (오류가 발생했습니다…); 'empty': it ended without text (응답이 없습니다…). */
export type ChatOutcome = { ok: true; answer: ChatAnswer } | { ok: false; kind: 'error' | 'empty'; message?: string };

const ALIASES: Record<string, UiTrigger> = { show_fleet: 'fleet', cars: 'fleet', price: 'pricing', show_pricing: 'pricing', reservation: 'reserve', booking: 'reserve', book: 'reserve', request: 'reserve', mypage: 'my', my_page: 'my' };

/** Triggers as strings or {type|action|name} objects, known ones only. */
function readTriggers(raw: unknown): UiTrigger[] {
  if (!Array.isArray(raw)) return [];
  const names = raw.map((t: unknown) => {
    if (typeof t === 'string') return t;
    const o = asRecord(t);
    return o ? (o.type ?? o.action ?? o.name) : null;
  });
  const known = names.map((n) => (typeof n === 'string' ? ((UI_TRIGGERS as readonly string[]).includes(n) ? (n as UiTrigger) : ALIASES[n.toLowerCase()]) : undefined));
  return [...new Set(known.filter((t): t is UiTrigger => !!t))];
}

/** The answer inside a plain JSON reply, wrapped in data (or data.data) or not. */
function fromJson(json: unknown): ChatAnswer {
  const outer = asRecord(json);
  const body = asRecord(asRecord(outer?.data)?.data ?? outer?.data ?? json) ?? {};
  return {
    text: typeof body.message_text === 'string' ? body.message_text : '',
    updates: sanitizeUpdates(body.updates ?? {}),
    ui_triggers: readTriggers(body.ui_triggers),
    next_prompt: typeof body.next_prompt === 'string' ? body.next_prompt : null,
  };
}

/**
 * Sends one message and reads the answer: an event stream of `data:` lines (content pieces,
 * then the updates, then is_finished / [DONE]) or a plain JSON reply. `onText` gets the text so
 * far as it streams. Never throws.
 */
export async function sendChat(body: { message: string; carId: number | null; state: BookingState }, opts: { signal?: AbortSignal; onText?: (text: string) => void } = {}): Promise<ChatOutcome> {
  freshSession();
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
  const token = $session.get().accessToken;
  if (token) headers.authorization = `Bearer ${token}`;
  const timeout = AbortSignal.timeout(CHAT_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const answer: ChatAnswer = { text: '', updates: {}, ui_triggers: [], next_prompt: null };
  try {
    const res = await fetch(`${API_BASE}${CHAT_PATH}`, { method: 'POST', headers, body: JSON.stringify(body), signal });
    if (!res.ok) {
      const json = asRecord(await res.json().catch(() => null));
      return { ok: false, kind: 'error', message: typeof json?.message === 'string' ? json.message : undefined };
    }
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
      const parsed = fromJson(await res.json());
      return parsed.text.trim() ? { ok: true, answer: parsed } : { ok: false, kind: 'empty' };
    }
    let failed = false;
    for await (const item of sseJson(res.body)) {
      const ev = asRecord(item);
      if (typeof ev?.content === 'string') {
        answer.text += ev.content;
        opts.onText?.(answer.text);
      }
      if (typeof ev?.message_text === 'string') Object.assign(answer, fromJson(ev));
      if (ev?.updates || ev?.ui_triggers) {
        answer.updates = sanitizeUpdates(ev.updates ?? {});
        answer.ui_triggers = readTriggers(ev.ui_triggers);
        answer.next_prompt = typeof ev.next_prompt === 'string' ? ev.next_prompt : null;
      }
      if (ev?.error) failed = true;
      if (ev?.is_finished) break;
    }
    if (failed && !answer.text.trim()) return { ok: false, kind: 'error' };
    return answer.text.trim() ? { ok: true, answer } : { ok: false, kind: 'empty' };
  } catch {
    if (opts.signal?.aborted && answer.text.trim()) return { ok: true, answer };
    return { ok: false, kind: 'error' };
  }
}
