import { Hono } from 'hono';
import { ChatRequestSchema } from '../services/chat/schemas';
import { ApiError, badRequest } from '../errors';
import { ok, parseJson, type AppEnv } from '../http';
import { clientIp, limitIp } from '../middleware/rate-limit';
import { afterHandoffNotice, chatHandoff } from '../notifications/chat-handoff';
import { answer, type ChatEvent } from '../services/chat/assistant';
import { butlerCarList } from '../services/catalogue';

/** Limits of the chat endpoint; tests shorten the timeouts. */
export const chatSettings = {
  /** Messages per IP per minute and per hour. */
  perMinute: 20,
  perHour: 200,
  /** The model's time for a whole answer before the local assistant takes over, ms. */
  llmTimeoutMs: 15_000,
  /** Hard end of any answer, ms. */
  requestTimeoutMs: 20_000,
  /** Pause between the local assistant's tokens, ms. */
  chunkDelayMs: 12,
};

const encoder = new TextEncoder();
const line = (data: unknown) => encoder.encode(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

/** Server-sent events: one `data:` line per event, then `{"is_finished":true}` and `[DONE]`; pulled, so a gone client stops generation. */
function eventStream(events: AsyncGenerator<ChatEvent>, stop: AbortController, onError: (err: unknown) => void): ReadableStream<Uint8Array> {
  async function* frames() {
    try {
      for await (const ev of events) yield line(ev);
    } catch (err) {
      onError(err);
      yield line({ error: '일시적인 오류가 발생했습니다.' });
    }
    yield line({ is_finished: true });
    yield line('[DONE]');
  }
  const it = frames();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await it.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      stop.abort();
      await it.return(undefined);
    },
  });
}

/** The butler chat assistant: POST /services/gpt/1 {message, carId, state}. */
export const chatRoutes = new Hono<AppEnv>().post('/gpt/1', async (c) => {
  await limitIp(c, 'chat:minute', chatSettings.perMinute, 60_000);
  await limitIp(c, 'chat:hour', chatSettings.perHour, 3_600_000);
  const input = await parseJson(c, ChatRequestSchema).catch((err: unknown) => {
    // Say what is wrong in the message itself (메시지는 1,000자 이하로 …), not only per field.
    if (err instanceof ApiError && err.fields && !('_' in err.fields)) throw badRequest(Object.values(err.fields)[0]?.[0] ?? err.message, err.fields);
    throw err;
  });
  const { db, config, log } = c.var.deps;
  const fleet = await butlerCarList(db);
  const stop = new AbortController();
  const signal = AbortSignal.any([c.req.raw.signal, stop.signal, AbortSignal.timeout(chatSettings.requestTimeoutMs)]);
  const opts = { config, fleet, now: new Date(), signal, log, llmTimeoutMs: chatSettings.llmTimeoutMs, chunkDelayMs: chatSettings.chunkDelayMs };
  // Asked for a person: staff are told (src/api/notifications/chat-handoff.ts) and the answer says so first.
  const handedOff = await chatHandoff(c.var.deps, { message: input.message, state: (input.state ?? {}) as Record<string, unknown>, authorization: c.req.header('authorization'), client: clientIp(c) })
    .catch((err: unknown) => (log('error', 'chat hand-off failed', err), false));
  const reply = (o: typeof opts) => (handedOff ? afterHandoffNotice(answer(input, o)) : answer(input, o));

  const accept = c.req.header('accept') ?? '';
  if (accept.includes('application/json') && !accept.includes('text/event-stream')) {
    let text = '';
    let meta: Extract<ChatEvent, { updates: unknown }> | null = null;
    for await (const ev of reply({ ...opts, chunkDelayMs: 0 })) {
      if ('content' in ev) text += ev.content;
      else meta = ev;
    }
    return ok(c, { message_text: text.trim(), next_prompt: meta?.next_prompt ?? null, updates: meta?.updates ?? {}, ui_triggers: meta?.ui_triggers ?? [] });
  }
  const body = eventStream(reply(opts), stop, (err) => log('error', 'chat answer failed', err));
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
});
