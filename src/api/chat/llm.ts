import type { LlmMessage } from './llm-protocol';
import { sseJson } from '../../domain/sse';

/** The model answered with an HTTP error, no body, or not at all. */
class LlmError extends Error {}

export interface LlmOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  messages: LlmMessage[];
  /** Aborts the call: the client left, or the time is up. */
  signal: AbortSignal;
}

/**
 * Streams the content deltas of an OpenAI-compatible chat completion (POST {base}/chat/completions
 * with stream: true; `data: {"choices":[{"delta":{"content":"…"}}]}` lines up to `data: [DONE]`).
 * A server that ignores `stream` and answers one JSON completion is read too.
 */
export async function* streamCompletion(opts: LlmOptions): AsyncGenerator<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const res = await fetch(`${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: opts.model, messages: opts.messages, stream: true, temperature: 0.2 }),
    signal: opts.signal,
  });
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    throw new LlmError(`LLM answered ${res.status}`);
  }
  if ((res.headers.get('content-type') ?? '').includes('application/json')) {
    const json = (await res.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
    const content = json.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new LlmError('LLM answer without content');
    yield content;
    return;
  }
  for await (const item of sseJson(res.body)) {
    const chunk = item as { choices?: Array<{ delta?: { content?: unknown } }> } | null;
    const content = chunk?.choices?.[0]?.delta?.content;
    if (typeof content === 'string' && content) yield content;
  }
}
