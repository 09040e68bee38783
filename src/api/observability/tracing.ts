import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/**
 * OpenTelemetry spans for requests, database calls, provider calls and jobs. Nothing is traced
 * until startTracing (tracing-setup.ts) turned it on: until then every helper here hands the work
 * straight through and no wrapper is installed, so a server without OTLP pays nothing.
 */
let enabled = false;

export const tracingEnabled = () => enabled;
/** Only tracing-setup.ts switches it. */
export const setTracingEnabled = (on: boolean) => void (enabled = on);

const tracer = () => trace.getTracer('luxe-api');

/** Runs `work` in a span under the one running now; a throw marks the span failed and is rethrown. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span?: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!enabled) return work();
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/** A call in a span that ends when its answer comes: a promise's settling, or at once for a plain value. */
function callInSpan(name: string, attributes: Attributes, call: () => unknown): unknown {
  return tracer().startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, (span) => {
    let result: unknown;
    try {
      result = call();
    } catch (err) {
      failed(span, err);
      span.end();
      throw err;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value: unknown) => (span.end(), value),
      (err: unknown) => {
        failed(span, err);
        span.end();
        throw err;
      },
    );
  });
}

/**
 * An API request's server span, continuing the caller's trace when it sent a W3C `traceparent`.
 * `finish` names it by the route's pattern once routing knows it (never the path with its ids).
 */
export async function inRequestSpan(headers: Record<string, string>, method: string, work: () => Promise<void>, finish: () => { route: string; status: number }): Promise<void> {
  if (!enabled) return work();
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
  try {
    await context.with(trace.setSpan(parent, span), work);
  } finally {
    const { route, status } = finish();
    span.updateName(`${method} ${route}`);
    span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}

/**
 * A provider (payments, licences, messages) whose every method call is a client span
 * `${system}.${method}`; the provider itself while tracing is off. Arguments are never recorded:
 * they carry card keys and people.
 */
export function tracedProvider<T extends object>(system: string, provider: T): T {
  if (!enabled) return provider;
  return new Proxy(provider, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => callInSpan(`${system}.${prop}`, { 'luxe.provider': system }, () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/** The statement's operation (SELECT, INSERT, BEGIN …), the span's name. */
const operationOf = (text: string) => /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';

/**
 * Makes the promise calls of a driver object's `query` and `exec` (pg's client or pool, PGlite or
 * its transaction) client spans with the parameterised statement: values are sent apart from the
 * text, so no customer's data is in it. Callback calls are left alone (the pool's own use of its
 * client, already inside the pool's span).
 */
export function traceQueries<T extends object>(driver: T, system: 'postgresql'): T {
  if (!enabled) return driver;
  const target = driver as Record<string, unknown>;
  for (const method of ['query', 'exec'] as const) {
    const original = target[method];
    if (typeof original !== 'function') continue;
    target[method] = function (this: unknown, ...args: unknown[]) {
      if (typeof args.at(-1) === 'function') return (original as (...a: unknown[]) => unknown).apply(this, args);
      const first = args[0];
      const text = typeof first === 'string' ? first : typeof (first as { text?: unknown } | undefined)?.text === 'string' ? (first as { text: string }).text : '';
      return callInSpan(operationOf(text), { 'db.system.name': system, 'db.query.text': text.slice(0, 1000) }, () => (original as (...a: unknown[]) => unknown).apply(this, args));
    };
  }
  // PGlite runs a transaction's statements on the object it hands to the callback.
  const transaction = target.transaction;
  if (typeof transaction === 'function') {
    target.transaction = function (this: unknown, work: (tx: object) => unknown, ...rest: unknown[]) {
      return (transaction as (...a: unknown[]) => unknown).call(this, (tx: object) => work(traceQueries(tx, system)), ...rest);
    };
  }
  return driver;
}
