import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { Config } from './env';
import type { Db } from './db/client';
import { badRequest } from './errors';

/** What every route handler can reach through `c.var`. */
export interface Deps {
  db: Db;
  config: Config;
  /** Called after a catalogue write; `npm start` rebuilds the static site from it. */
  onCatalogueChange: () => void;
  /** Call after butler reserved days change (booking, edit, cancel): drops cached /butlers/cars and /catalogue answers on every replica. */
  onReservationChange: () => void;
  log: (level: 'info' | 'error', message: string, extra?: unknown) => void;
}

export type AppEnv = { Variables: { deps: Deps; userId: number } };
export type Ctx = Context<AppEnv>;

/** Middleware of routes that book, edit or free butler days: a successful write drops the cached fleet answers. */
export const reservationWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.res.status < 400) c.var.deps.onReservationChange();
};

/** The success envelope. */
export function ok<T>(c: Context, data: T, status: ContentfulStatusCode = 200) {
  return c.json({ code: 0, message: 'OK', data }, status);
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

/** Validated path parameters: `c.req.valid('param')`. */
export const validParams = <S extends z.ZodType>(schema: S) => zValidator('param', schema, refuse);

/** Validated query string (keys that repeat arrive as arrays): `c.req.valid('query')`. */
export const validQuery = <S extends z.ZodType>(schema: S) => zValidator('query', schema, refuse);

/**
 * Validated JSON body: `c.req.valid('json')`. As before zValidator: a missing or blank body
 * reads as {}, broken JSON is a 400 (never a 500), and a JSON body counts whatever its
 * content type says (zValidator alone would read a body without the JSON type as {}).
 */
export function validJson<S extends z.ZodType>(schema: S) {
  const validate = zValidator('json', schema, refuse);
  const handler: typeof validate = async (c, next) => {
    const text = await c.req.text().catch(() => '');
    // bodyCache holds promises at run time (its type says otherwise).
    if (!text.trim()) c.req.bodyCache.text = Promise.resolve('{}') as unknown as string;
    else if (!isJson(text)) throw brokenJson();
    if (!/^application\/([\w.-]+\+)?json$/i.test((c.req.header('content-type') ?? '').split(';')[0].trim())) {
      // Same request with the JSON type; the body is already cached on c.req.
      c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers: { ...Object.fromEntries(c.req.raw.headers), 'content-type': 'application/json' } });
    }
    return validate(c, next);
  };
  return handler;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The JSON body through a schema, for a handler that must act before validating (the chat counts its rate limit first); a missing or broken body is a 400, never a 500. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let body: unknown = {};
  const text = await c.req.text().catch(() => '');
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      throw brokenJson();
    }
  }
  return parseOrThrow(schema, body);
}
