import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ChatRequestSchema } from './schemas';
import { ApiError, badRequest } from '../errors';
import { ok, parseJson, type AppEnv } from '../http';
import { clientIp, limitIp } from '../middleware/rate-limit';
import { afterHandoffNotice, chatHandoff } from './handoff';
import { answer, ownCarAnswer, type ChatEvent } from './assistant';
import { legalModelOf } from '../orders/butler-legal';
import { butlerCarList } from '../catalogue/catalogue';
import { todayInKorea } from '../../domain/dates';

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

/** The butler chat assistant: POST /services/gpt/1 {message, carId, state}. */
export const chatRoutes = new Hono<AppEnv>().post('/gpt/1', async (c) => {
  await limitIp(c, 'chat:minute', chatSettings.perMinute, 60_000);
  await limitIp(c, 'chat:hour', chatSettings.perHour, 3_600_000);
  const input = await parseJson(c, ChatRequestSchema).catch((err: unknown) => {
    // Say what is wrong in the message itself (메시지는 1,000자 이하로 …), not only per field.
    if (err instanceof ApiError && err.fields && !('_' in err.fields)) throw badRequest(Object.values(err.fields)[0]?.[0] ?? err.message, err.fields);
    throw err;
  });
  const { db, config, log, clock } = c.var.deps;
  const now = clock.now();
  const fleet = await butlerCarList(db, { today: todayInKorea(now) });
  const stop = new AbortController();
  const signal = AbortSignal.any([c.req.raw.signal, stop.signal, AbortSignal.timeout(chatSettings.requestTimeoutMs)]);
  const opts = { config, fleet, now, signal, log, llmTimeoutMs: chatSettings.llmTimeoutMs, chunkDelayMs: chatSettings.chunkDelayMs };
  // Asked for a person: staff are told (src/api/chat/handoff.ts) and the answer says so first.
  const handedOff = await chatHandoff(c.var.deps, { message: input.message, state: (input.state ?? {}) as Record<string, unknown>, authorization: c.req.header('authorization'), client: clientIp(c) })
    .catch((err: unknown) => (log('error', 'chat hand-off failed', err), false));
  // Under own-car no fleet car is rented with a driver: the chat explains it and offers none.
  const ownCar = legalModelOf(c) === 'own-car';
  const one = (o: typeof opts) => (ownCar ? ownCarAnswer(o) : answer(input, o));
  const reply = (o: typeof opts) => (handedOff ? afterHandoffNotice(one(o)) : one(o));

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
  // Server-sent events: one `data:` line per event, then `{"is_finished":true}` and `[DONE]`. A gone
  // client aborts the answer (stop), and nothing more is written.
  const events = reply(opts);
  const res = streamSSE(c, async (stream) => {
    stream.onAbort(() => stop.abort());
    const send = (data: unknown) => stream.writeSSE({ data: typeof data === 'string' ? data : JSON.stringify(data) });
    try {
      for await (const ev of events) {
        if (stream.aborted) return;
        await send(ev);
      }
    } catch (err) {
      if (stream.aborted) return;
      log('error', 'chat answer failed', err);
      await send({ error: '일시적인 오류가 발생했습니다.' });
    }
    if (stream.aborted) return;
    await send({ is_finished: true });
    await send('[DONE]');
  });
  // no-transform: proxies and compression pass the stream as it is; x-accel-buffering: nginx does not buffer it.
  res.headers.set('content-type', 'text/event-stream; charset=utf-8');
  res.headers.set('cache-control', 'no-cache, no-transform');
  res.headers.set('x-accel-buffering', 'no');
  // Node frames the stream and keeps the connection itself (and HTTP/2 forbids these headers).
  res.headers.delete('connection');
  res.headers.delete('transfer-encoding');
  return res;
});
