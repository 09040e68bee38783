import type { ClientRequestOptions, ClientResponse } from 'hono/client';
import { API_BASE_URL } from '../config/services';
import { INTERNAL_CODE, TOKEN_EXPIRED_CODE, type ApiFailure } from '../domain/error-codes';
import { asRecord } from '../domain/json';
import { $session, clearSession } from '../stores/session';
import type { ApiClient } from './api-types';
import { freshSession } from './keep-alive';

export type { ApiClient, ApiData, ApiPath } from './api-types';

/** API base URL in the browser: same origin under /api unless PUBLIC_API_BASE_URL says otherwise. */
export const API_BASE = API_BASE_URL;

/** Every call gives up after 30 seconds. */
const API_TIMEOUT_MS = 30_000;

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; error: ApiFailure };

/** How long to wait, and what may cancel the call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** What a route method of the client is called with (the part of hc's arguments the islands use). */
interface RouteArgs {
  param?: Record<string, string>;
  query?: Record<string, string | string[] | undefined>;
  json?: unknown;
}

/** One request as hc would send it: path parameters filled, the query appended, a JSON body, the caller's headers and init. */
export function send(method: string, path: string, args: RouteArgs = {}, o: ClientRequestOptions = {}): Promise<Response> {
  // A route's `:id` (or `:id{[0-9]+}`) takes the parameter's value; one not given stays as written.
  let url = `${API_BASE}/${path.replace(/:(\w+)(?:\{[^/]+\})?/g, (written, key: string) => args.param?.[key] ?? written)}`;
  const q = new URLSearchParams(Object.entries(args.query ?? {}).flatMap(([k, v]) => [v ?? []].flat().map((one) => [k, one])));
  if (q.size) url += `?${q}`;
  const json = args.json !== undefined;
  const headers = { ...(o.headers as Record<string, string> | undefined), ...(json && { 'content-type': 'application/json' }) };
  return fetch(url, { method: method.toUpperCase(), headers, body: json ? JSON.stringify(args.json) : undefined, ...o.init });
}

/** The client's runtime: `client.a.b[':id'].$post(args, o)` sends POST {base}/a/b/:id. Hono's hc does the same; this is its part the site needs, in a few hundred bytes. */
function routeProxy(path: string[]): unknown {
  return new Proxy(
    {},
    {
      get: (_, key) => {
        if (typeof key !== 'string' || key === 'then') return undefined;
        if (key.startsWith('$')) return (args?: RouteArgs, o?: ClientRequestOptions) => send(key.slice(1), path.join('/'), args, o);
        return routeProxy([...path, key]);
      },
    },
  );
}

/**
 * The API's routes, typed from the server's own (Hono RPC, `hc<ApiRoutes>`):
 * `client.accounts.login.$post({ json: { email, password } })`. A path, body or answer that
 * changes on the server breaks the islands' type check. Call through `call()` below.
 */
export const client = routeProxy([]) as ApiClient;

/** The `data` of a route's success envelope (src/api/http.ts ok()). */
export type AnswerOf<R> = R extends ClientResponse<infer Body, number, string> ? (Body extends { code: 0; data: infer D } ? D : never) : never;

export const networkFailure = (message: string): ApiFailure => ({ code: INTERNAL_CODE, message, errors: {} });

/** What every request carries: the bearer token (renewed first when lapsed), JSON accepted, and the deadline. */
export async function requestOptions(opts: CallOptions, file?: Blob): Promise<{ headers: Record<string, string>; init: RequestInit }> {
  const s = freshSession();
  // A lapsed access token is renewed with the refresh token before the call (src/client/refresh.ts).
  if (s.accessToken && s.refreshToken && s.expiresAt !== null && s.expiresAt <= Math.floor(Date.now() / 1000)) await (await import('./refresh')).renewIfLapsed();
  const token = $session.get().accessToken;
  const headers: Record<string, string> = { accept: 'application/json' };
  // A file (a photo upload) goes as it is, the raw body under its own type: nothing holds it as text.
  if (file) headers['content-type'] = file.type || 'application/octet-stream';
  if (token) headers.authorization = `Bearer ${token}`;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? API_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  return { headers, init: file ? { signal, body: file } : { signal } };
}

/** What unwrap reads of an answer: a fetch Response, or hc's typed view of one. */
type Answer = Pick<Response, 'ok' | 'status'> & { json(): Promise<unknown> };

/** The envelope unwrapped: the answer's data, or the server's Korean message and field errors. */
export async function unwrap(send: () => Promise<Answer>): Promise<ApiResult<unknown>> {
  let res: Answer;
  try {
    res = await send();
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    return { ok: false, status: 0, error: networkFailure(timedOut ? '서버 응답이 지연되고 있습니다. 잠시 후 다시 시도해주세요.' : '네트워크 연결을 확인해주세요.') };
  }
  let json: Record<string, unknown> | null = null;
  try {
    json = asRecord(await res.json());
  } catch {
    /* non-JSON answer */
  }
  if (res.ok && json && json.code === 0) return { ok: true, data: json.data };
  const error: ApiFailure =
    json && typeof json.message === 'string'
      ? { code: json.code as ApiFailure['code'], message: json.message, errors: (json.errors ?? {}) as NonNullable<ApiFailure['errors']> }
      : networkFailure('일시적인 오류가 발생했습니다. 잠시 후 다시 시도해주세요.');
  if (res.status === 401 && error.code === TOKEN_EXPIRED_CODE) clearSession();
  return { ok: false, status: res.status, error };
}

/**
 * Calls one route of the typed client: `call((o) => client.accounts.login.$post({ json }, o))`.
 * Bearer token when logged in, 30 s timeout (or `timeoutMs`), envelope unwrapped; `file` goes as
 * the raw body under its own content type (a photo upload). Never throws; a failure carries the
 * server's Korean message and field errors. An expired-token answer clears the session.
 */
export async function call<R extends ClientResponse<unknown, number, string>>(
  send: (o: ClientRequestOptions) => Promise<R>,
  opts: CallOptions & { file?: Blob } = {},
): Promise<ApiResult<AnswerOf<R>>> {
  const o = await requestOptions(opts, opts.file);
  // The answer's type is the route's own (AnswerOf): the server wrote this envelope from it.
  return (await unwrap(() => send(o))) as ApiResult<AnswerOf<R>>;
}
