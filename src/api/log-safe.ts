/**
 * An error as it may be written to the log: name, message, SQLSTATE code and stack, never the
 * values a query was run with. Drizzle's DrizzleQueryError puts the parameters (emails, phone
 * numbers, password hashes) into its message ("params: …") and keeps them on `.params`, and a
 * database error can quote the offending value ('invalid input syntax …: "…"', `detail`
 * "Key (email)=(…)"); all of that is left out. The SQL text itself has only placeholders.
 */
export interface SafeError {
  name: string;
  message: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  query?: string;
  cause?: SafeError;
  stack?: string;
}

const PARAMS = /\nparams:[\s\S]*$/;
/** A quoted value in a database message; identifiers are logged apart (constraint, table, column). */
const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;

const isDatabaseError = (e: Record<string, unknown>) => typeof e.code === 'string' && (/^[0-9A-Z]{5}$/.test(e.code) || 'severity' in e);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export function safeError(err: unknown, depth = 0): SafeError {
  if (!(err instanceof Error)) return { name: typeof err, message: '(not an Error)' };
  const e = err as Error & Record<string, unknown>;
  const database = isDatabaseError(e);
  let message = e.message.replace(PARAMS, '');
  if (database) message = message.replace(QUOTED, '"…"');
  const query = e.name === 'DrizzleQueryError' ? str(e.query) : undefined;
  if (query) message = 'Failed query';
  const out: SafeError = { name: e.name, message };
  if (str(e.code)) out.code = e.code as string;
  if (database) {
    for (const k of ['constraint', 'table', 'column'] as const) if (str(e[k])) out[k] = e[k] as string;
  }
  if (query) out.query = query;
  // The stack's first lines repeat the message: keep only the frames.
  if (e.stack) out.stack = [`${out.name}: ${out.message}`, ...e.stack.split('\n').filter((l) => /^\s+at /.test(l))].join('\n');
  if (e.cause !== undefined && depth < 3) out.cause = safeError(e.cause, depth + 1);
  return out;
}
