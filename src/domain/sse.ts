/**
 * The JSON payloads of a server-sent event stream's `data:` lines, in order, until `[DONE]`
 * or the end. Lines that are not data or not JSON (keep-alives, comments) are skipped.
 * Shared by the chat page (our stream) and the server's LLM client (OpenAI's stream).
 */
export async function* sseJson(body: ReadableStream<BufferSource>): AsyncGenerator<unknown> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        try {
          yield JSON.parse(data);
        } catch {
          // not JSON: a keep-alive or a vendor's extra line
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
