import pino, { type Logger } from 'pino';
import { currentRequestId } from './request-context';

export type { Logger };
export type LogLevel = 'silent' | 'error' | 'info';

/** Where lines go: stdout, or a test's buffer. */
export interface LogSink {
  write(line: string): void;
}

/**
 * A line never carries a customer's email or phone number, whatever a caller put in it: the
 * callers already log ids rather than people (log-safe.ts); this is the net under them.
 */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE = /(?<!\d)(?:\+?82[- ]?)?0?1[016789][- ]?\d{3,4}[- ]?\d{4}(?!\d)/g;
export const scrubLine = (line: string) => line.replace(EMAIL, '[email]').replace(PHONE, '[phone]');

/** Development: one short readable line per entry instead of JSON. */
function prettyLine(json: string): string {
  try {
    const { time, level, msg, pid: _pid, hostname: _host, ...rest } = JSON.parse(json) as Record<string, unknown>;
    const fields = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    return `${String(time).slice(11, 19)} ${String(level).toUpperCase().padEnd(5)} ${typeof msg === 'string' ? msg : ''}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
  } catch {
    return json;
  }
}

/**
 * The product's one logger: JSON lines (pino) with the time, level, message and the request id
 * of the work running, at LOG_LEVEL; pretty lines in development.
 */
export function createLogger(opts: { level: LogLevel; pretty?: boolean; sink?: LogSink }): Logger {
  const sink = opts.sink ?? process.stdout;
  const destination = { write: (line: string) => void sink.write(scrubLine(opts.pretty ? prettyLine(line) : line)) };
  return pino(
    {
      level: opts.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { request_id: requestId } : {};
      },
    },
    destination,
  );
}
