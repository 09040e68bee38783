import { API_BASE_URL } from '../config/services';
import { ErrorCode, type ApiFailure } from '../domain/error-codes';
import { asRecord } from '../domain/json';
import { $session, clearSession } from '../stores/session';
import { freshSession } from './keep-alive';

/** API base URL in the browser: same origin under /api unless PUBLIC_API_BASE_URL says otherwise. */
export const API_BASE = API_BASE_URL;

/** Every call gives up after 30 seconds. */
export const API_TIMEOUT_MS = 30_000;

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; error: ApiFailure };

const networkFailure = (message: string): ApiFailure => ({ code: ErrorCode.INTERNAL, message, errors: {} });

/**
 * Calls the API: JSON (or a FormData, or a file as the raw body) in, JSON out, bearer token when logged in, 30 s timeout (or `timeoutMs`), envelope
 * unwrapped. Never throws; a failure carries the server's Korean message and field errors.
 * An expired-token answer clears the session.
 */
export async function api<T>(method: string, path: string, body?: unknown, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ApiResult<T>> {
  const s = freshSession();
  // A lapsed access token is renewed with the refresh token before the call (src/client/refresh.ts).
  if (s.accessToken && s.refreshToken && s.expiresAt !== null && s.expiresAt <= Math.floor(Date.now() / 1000)) await (await import('./refresh')).renewIfLapsed();
  const token = $session.get().accessToken;
  const headers: Record<string, string> = { accept: 'application/json' };
  // A form (a file upload) goes as multipart: fetch sets its content type with the boundary.
  const form = body instanceof FormData;
  // A file (a photo upload) goes as it is, the raw body under its own type: nothing holds it as text.
  const file = body instanceof Blob;
  if (file) headers['content-type'] = body.type || 'application/octet-stream';
  else if (body !== undefined && !form) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? API_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { method, headers, body: form || file ? body : body === undefined ? undefined : JSON.stringify(body), signal });
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
  if (res.ok && json && json.code === 0) {
    // Some answers of the earlier API nested data twice; accept both.
    const inner = asRecord(json.data);
    const data = inner && 'data' in inner && Object.keys(inner).length === 1 ? inner.data : json.data;
    // The caller names the answer's type (a domain view); the server's envelope is what makes it so.
    return { ok: true, data: data as T };
  }
  const error: ApiFailure =
    json && typeof json.message === 'string'
      ? { code: json.code as ApiFailure['code'], message: json.message, errors: (json.errors ?? {}) as NonNullable<ApiFailure['errors']> }
      : networkFailure('일시적인 오류가 발생했습니다. 잠시 후 다시 시도해주세요.');
  if (res.status === 401 && error.code === ErrorCode.TOKEN_EXPIRED) clearSession();
  return { ok: false, status: res.status, error };
}

export const get = <T>(path: string, opts?: { signal?: AbortSignal }) => api<T>('GET', path, undefined, opts);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body ?? {});
export const del = <T>(path: string) => api<T>('DELETE', path);
