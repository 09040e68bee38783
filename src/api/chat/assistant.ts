import { reconcileUpdates, respond, type DialogueContext, type Reply } from './dialogue';
import type { ChatCar } from '../../domain/chat/fleet';
import { buildLlmMessages, FenceSplitter, parseLlmBlock } from './llm-protocol';
import { parseMessage } from './parser';
import type { ChatRequest } from './schemas';
import { applyUpdates, nextMissing, type BookingUpdates, type UiTrigger } from '../../domain/chat/state';
import { koreaDate } from '../../domain/dates';
import type { Config } from '../env';
import type { Deps } from '../http';
import { streamCompletion } from './llm';

/** One event of an answer: a piece of text, or the structured part (sent once, last). */
export type ChatEvent = { content: string } | { updates: BookingUpdates; ui_triggers: UiTrigger[]; next_prompt: string | null };

export interface AnswerOptions {
  config: Config;
  fleet: ChatCar[];
  now: Date;
  /** Client gone or request time up: stop generating. */
  signal: AbortSignal;
  log: Deps['log'];
  /** Time the model has for its whole answer, ms. */
  llmTimeoutMs: number;
  /** Pause between the local assistant's tokens, ms (the typing feel; 0 in tests). */
  chunkDelayMs: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Words with their following blanks, the unit the local assistant streams in. */
const tokens = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

async function* streamReply(reply: Reply, opts: Pick<AnswerOptions, 'signal' | 'chunkDelayMs'>): AsyncGenerator<ChatEvent> {
  for (const token of tokens(reply.text)) {
    if (opts.signal.aborted) return;
    yield { content: token };
    await sleep(opts.chunkDelayMs, opts.signal);
  }
  yield { updates: reply.updates, ui_triggers: reply.ui_triggers, next_prompt: reply.next_prompt };
}

/** What the chat answers under BUTLER_LEGAL_MODEL=own-car: no fleet car is offered (docs/decisions/legal.md §2). */
export const OWN_CAR_CHAT_TEXT =
  '현재 LUXE 의전 서비스는 고객님의 차량(이용 중인 LUXE 구독 차량 포함)에 기사를 배정하는 방식으로만 운영되어, 채팅에서는 의전 차량을 안내해 드리지 않습니다. 의전 예약 페이지(/butler/request)에서 차량 정보를 입력하고 기사를 예약해 주세요.';

/** The own-car answer as events: the explanation, no updates (nothing of the fleet is filled in). */
export async function* ownCarAnswer(opts: Pick<AnswerOptions, 'signal' | 'chunkDelayMs'>): AsyncGenerator<ChatEvent> {
  yield* streamReply({ text: OWN_CAR_CHAT_TEXT, updates: {}, ui_triggers: [], next_prompt: null }, opts);
}

/**
 * The assistant's answer to one message as events. Without LLM_BASE_URL the local Korean
 * assistant answers. With it, the model's text streams through while its fenced block is held
 * back, validated and checked like the local assistant's updates; a model that fails, times out
 * or says nothing hands over to the local assistant.
 */
export async function* answer(input: ChatRequest, opts: AnswerOptions): AsyncGenerator<ChatEvent> {
  const dctx: DialogueContext = { now: opts.now, fleet: opts.fleet, carId: input.carId };
  const local = () => respond(input.message, input.state, dctx);
  const llm = opts.config.llm;
  if (!llm.baseUrl) {
    yield* streamReply(local(), opts);
    return;
  }
  let shown = '';
  try {
    const hints = parseMessage(input.message, { today: koreaDate(opts.now), fleet: opts.fleet, expecting: nextMissing(input.state), agreed: input.state.날짜 }).updates;
    const messages = buildLlmMessages({ message: input.message, state: input.state, fleet: opts.fleet, now: opts.now, hints });
    const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.llmTimeoutMs)]);
    const split = new FenceSplitter();
    for await (const delta of streamCompletion({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model, messages, signal })) {
      const visible = split.push(delta);
      if (visible) {
        shown += visible;
        yield { content: visible };
      }
    }
    const { rest, block } = split.end();
    if (rest) {
      shown += rest;
      yield { content: rest };
    }
    if (!shown.trim()) throw new Error('the model said nothing');
    const meta = parseLlmBlock(block);
    if (!meta) opts.log('info', 'LLM answer without a readable booking block; the parser fills the state');
    const proposed = meta?.updates ?? parseMessage(input.message, { today: koreaDate(opts.now), fleet: opts.fleet, expecting: nextMissing(input.state), agreed: input.state.날짜 }).updates;
    const { updates, warnings } = reconcileUpdates(proposed, input.state, dctx);
    if (warnings.length) yield { content: `\n\n${warnings.join('\n')}` };
    const triggers = new Set(meta?.ui_triggers ?? []);
    if (nextMissing(applyUpdates(input.state, updates))) triggers.delete('reserve');
    else triggers.add('reserve');
    yield { updates, ui_triggers: [...triggers], next_prompt: meta?.next_prompt ?? null };
  } catch (err) {
    if (opts.signal.aborted) return;
    opts.log('info', 'LLM unavailable; the local assistant answers', err instanceof Error ? err.message : err);
    if (shown) yield { content: '\n\n' };
    yield* streamReply(local(), opts);
  }
}
