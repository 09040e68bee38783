import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { Config } from './env';
import type { Db } from './db/client';
import type { SettableClock } from './jobs/clock';
import type { RunReport } from './jobs/runner';
import type { PaymentProvider } from './payment-provider';
import type { LicenceProvider } from './licence-provider';
import type { TaxInvoiceProvider } from './tax-invoice-provider';
import type { BusinessStatusProvider } from './business-status-provider';
import type { ChargeOutcomes, RefundFollowUp } from './payment-context';
import { ErrorCode } from '../domain/error-codes';
import { ApiError, badRequest } from './errors';

/** What every route handler can reach through `c.var`. */
export interface Deps {
  db: Db;
  config: Config;
  /** Called after a catalogue write; `npm start` rebuilds the static site from it. */
  onCatalogueChange: () => void;
  /** Call after butler reserved days change (booking, edit, cancel): drops cached /butlers/cars and /catalogue answers on every replica. */
  onReservationChange: () => void;
  /** Asks for a storefront build now, even when the catalogue version is unchanged (console 발행, webhook); `npm start` wires it (catalogue/publish-builds.ts records the build). */
  requestPublish: (trigger: 'publish' | 'webhook') => void;
  log: (level: 'info' | 'error', message: string, extra?: unknown) => void;
  /** The one payment provider (PortOne or the sandbox; src/api/billing/providers.ts). */
  payments: PaymentProvider;
  /** The 운전자격 확인 adapter (the sandbox or the relay; src/api/licences/providers.ts). */
  licences: LicenceProvider;
  /** The 전자세금계산서 provider (PortOne B2B or the sandbox; src/api/invoices/providers.ts). */
  taxInvoices: TaxInvoiceProvider;
  /** The 사업자 상태 check (PortOne B2B or the sandbox; src/api/companies/status-providers.ts). */
  businessStatus: BusinessStatusProvider;
  /** What follows a settled charge of each purpose (src/api/charge-outcomes.ts). */
  outcomes: ChargeOutcomes;
  /** What follows a recorded refund (src/api/charge-outcomes.ts: a card payment's 수정세금계산서). */
  refunded: RefundFollowUp;
  /** The business clock: due charges, retries, refund windows (a test clock can move it). */
  clock: SettableClock;
  /** Runs the due jobs of these kinds (all kinds when omitted) now and resolves when they are done. */
  runJobs: (kinds?: readonly string[]) => Promise<RunReport>;
}

export type AppEnv = { Variables: { deps: Deps; userId: number } };
export type Ctx = Context<AppEnv>;

/**
 * Middleware of routes that book, edit or free a butler day or a subscribed car: a successful write
 * drops the cached answers that show them (the fleet's reserved days, the garage's "지금 구독 가능").
 */
export const reservationWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.res.status < 400) c.var.deps.onReservationChange();
};

/**
 * The JSON text of the answers ok() and okJson() made: the middleware that needs their bytes
 * (compression, the catalogue cache) takes them from here instead of reading the body back
 * through a stream, which costs more than writing the JSON did.
 */
const jsonBodies = new WeakMap<Response, Buffer>();
export const jsonBodyOf = (res: Response): Buffer | undefined => jsonBodies.get(res);

function jsonAnswer(c: Context, body: Buffer, status: ContentfulStatusCode): Response {
  const res = c.body(body as Uint8Array<ArrayBuffer>, status, { 'content-type': 'application/json' });
  jsonBodies.set(res, body);
  return res;
}

/** The success envelope's shape: what the islands' typed client (src/client/api.ts) reads from each route. */
type Envelope<T> = { code: 0; message: 'OK'; data: T };

/**
 * The answer's type for Hono's RPC types (`hc<ApiRoutes>`): the body is the bytes written here (kept for
 * the cache and compression), typed as the JSON envelope they are.
 */
type JsonAnswer<T, S extends ContentfulStatusCode> = Response & TypedResponse<Envelope<T>, S, 'json'>;

/** The success envelope. */
export function ok<T, S extends ContentfulStatusCode = 200>(c: Context, data: T, status: S = 200 as S): JsonAnswer<T, S> {
  return jsonAnswer(c, Buffer.from(JSON.stringify({ code: 0, message: 'OK', data })), status) as JsonAnswer<T, S>;
}

const OK_OPEN = Buffer.from('{"code":0,"message":"OK","data":');
const OK_CLOSE = Buffer.from('}');

/** `ok` for an answer whose JSON is already written as bytes, in parts (the garage's hot path: each car's JSON is kept per catalogue version). */
export function okJson<T>(c: Context, dataJson: readonly Buffer[]): JsonAnswer<T, 200> {
  return jsonAnswer(c, Buffer.concat([OK_OPEN, ...dataJson, OK_CLOSE]), 200) as JsonAnswer<T, 200>;
}

interface Issues {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** zod issues as `{ field: [messages] }`; issues without a path go under `_`. */
export function fieldErrors(error: Issues): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

// Korean for every message a schema does not word itself (zod's own "Too big", "Invalid input").
z.config(z.locales.ko());

const INVALID_INPUT = '입력값을 확인해주세요.';
const brokenJson = () => badRequest('요청 본문이 올바른 JSON 형식이 아닙니다.', { _: ['JSON 형식 오류'] });

function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badRequest(INVALID_INPUT, fieldErrors(result.error));
  return result.data;
}

/** The zValidator hook: input the schema refuses is the Korean 400 envelope with field messages. */
const refuse = (result: { success: boolean; error?: Issues }) => {
  if (!result.success) throw badRequest(INVALID_INPUT, result.error ? fieldErrors(result.error) : {});
};

/** A NUL byte: PostgreSQL text refuses it (22021), so no string that holds one gets past validation. */
const NUL = '\u0000';
const NUL_MESSAGE = '사용할 수 없는 문자(NUL)가 포함되어 있습니다.';

/** Deeper input than any payload has is refused before anything walks it (no stack overflow). */
const MAX_DEPTH = 32;
const tooDeep = () => badRequest(INVALID_INPUT, { _: ['입력 구조가 너무 깊습니다.'] });

/** Field paths (a.b.0) of the strings, keys included, that hold a NUL byte; '_' is the input itself. */
function nulPaths(value: unknown, path: string[] = [], out: string[] = []): string[] {
  if (path.length > MAX_DEPTH) throw tooDeep();
  if (typeof value === 'string') {
    if (value.includes(NUL)) out.push(path.length ? path.join('.') : '_');
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nulPaths(v, [...path, String(i)], out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(NUL)) out.push([...path, k.replaceAll(NUL, '\\0')].join('.'));
      else nulPaths(v, [...path, k], out);
    }
  }
  return out;
}

/** Any string of a query, path, JSON body or form holding a NUL byte is the Korean 400, once, before any schema or query sees it. */
export function rejectNul(input: unknown): void {
  const paths = nulPaths(input);
  if (paths.length) throw badRequest(INVALID_INPUT, Object.fromEntries(paths.map((p) => [p, [NUL_MESSAGE]])));
}

/** Validated path parameters: `c.req.valid('param')`. */
export function validParams<S extends z.ZodType>(schema: S) {
  const validate = zValidator('param', schema, refuse);
  const handler: typeof validate = async (c, next) => {
    rejectNul(c.req.param());
    return validate(c, next);
  };
  return handler;
}

/** Validated query string (keys that repeat arrive as arrays): `c.req.valid('query')`. */
export function validQuery<S extends z.ZodType>(schema: S) {
  const validate = zValidator('query', schema, refuse);
  const handler: typeof validate = async (c, next) => {
    // A key given once is reported as itself (brand), a repeated one by position (brand.1).
    rejectNul(Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v])));
    return validate(c, next);
  };
  return handler;
}

/** A form body (the sandbox pages) as strings; a NUL byte anywhere is the 400. Files read as absent. */
export async function formBody(c: Context): Promise<Record<string, string>> {
  const form = await c.req.parseBody().catch(() => ({}));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (typeof v === 'string') out[k] = v;
  rejectNul(out);
  return out;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
const notJson = () => new ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, '요청 형식은 application/json이어야 합니다.', { _: ['Content-Type 헤더를 application/json으로 보내주세요.'] });
const notObject = () => badRequest('요청 본문은 JSON 객체여야 합니다.', { _: ['JSON 객체({ … })가 아닙니다.'] });

/**
 * The JSON body as text, checked: a nonblank body must say application/json (or +json), so a
 * cross-site form or simple request cannot post one (415); broken JSON is the 400; a NUL
 * byte in any string is the 400. A missing or blank body is '' (the caller reads it as {}).
 */
async function checkedJsonText(c: Context): Promise<{ text: string; value: unknown }> {
  const text = await c.req.text().catch(() => '');
  if (!text.trim()) return { text: '', value: {} };
  if (!JSON_TYPE.test((c.req.header('content-type') ?? '').split(';')[0].trim())) throw notJson();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw brokenJson();
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw notObject();
  rejectNul(value);
  return { text, value };
}

/**
 * Validated JSON body: `c.req.valid('json')`. A missing or blank body reads as {}; a body
 * needs the JSON content type (415 otherwise); broken JSON and NUL bytes are a 400 (never a 500).
 */
export function validJson<S extends z.ZodType>(schema: S) {
  const validate = zValidator('json', schema, refuse);
  const handler: typeof validate = async (c, next) => {
    const { text } = await checkedJsonText(c);
    if (!text) {
      // bodyCache holds promises at run time (its type says otherwise).
      c.req.bodyCache.text = Promise.resolve('{}') as unknown as string;
    }
    return validate(c, next);
  };
  return handler;
}

/** The JSON body through a schema, for a handler that must act before validating (the chat counts its rate limit first); a missing or broken body is a 400, never a 500. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseOrThrow(schema, (await checkedJsonText(c)).value);
}
