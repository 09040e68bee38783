import type { Context } from 'hono';
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
  log: (level: 'info' | 'error', message: string, extra?: unknown) => void;
}

export type AppEnv = { Variables: { deps: Deps; userId: number } };
export type Ctx = Context<AppEnv>;

/** The success envelope. */
export function ok<T>(c: Context, data: T, status: ContentfulStatusCode = 200) {
  return c.json({ code: 0, message: 'OK', data }, status);
}

/** zod issues as `{ field: [messages] }`; issues without a path go under `_`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badRequest('입력값을 확인해주세요.', fieldErrors(result.error));
  return result.data;
}

/** The query string through a schema; keys that repeat arrive as arrays. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const all = c.req.queries();
  const input: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(all)) input[key] = values.length === 1 ? values[0] : values;
  return parseOrThrow(schema, input);
}

/** Path parameters through a schema. */
export function parseParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parseOrThrow(schema, c.req.param());
}

/** The JSON body through a schema; a missing or broken body is a 400, never a 500. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let body: unknown = {};
  const text = await c.req.text().catch(() => '');
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      throw badRequest('요청 본문이 올바른 JSON 형식이 아닙니다.', { _: ['JSON 형식 오류'] });
    }
  }
  return parseOrThrow(schema, body);
}
