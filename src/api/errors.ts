import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ErrorCode, type ErrorCodeValue } from '../domain/error-codes';

/** An error the API answers with as-is: status, envelope code, Korean message, field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: Exclude<ErrorCodeValue, 0>,
    message: string,
    readonly fields?: Record<string, string[]>,
    /** Headers of the answer, e.g. `connection: close` after a body the server did not read. */
    readonly headers?: Record<string, string>,
    /** What the answer carries besides the message (`data`), e.g. the next free start of a refused order. */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * 400 for a body over its limit. The rest of it is not read: `connection: close` ends the
 * keep-alive connection cleanly after the answer, so the client's next request opens a new one
 * instead of meeting a socket the server closes while the upload is still arriving.
 */
export const bodyTooLarge = (message: string, fields: Record<string, string[]>) => new ApiError(400, ErrorCode.VALIDATION, message, fields, { connection: 'close' });

/** 413 for an upload over its limit (a photo file, not a JSON body), closing the connection like bodyTooLarge. */
export const payloadTooLarge = (message: string, fields: Record<string, string[]>) => new ApiError(413, ErrorCode.PAYLOAD_TOO_LARGE, message, fields, { connection: 'close' });

export const badRequest = (message: string, fields?: Record<string, string[]>) =>
  new ApiError(400, ErrorCode.VALIDATION, message, fields);
export const notFound = (message = '요청한 정보를 찾을 수 없습니다.') => new ApiError(404, ErrorCode.NOT_FOUND, message);
export const unauthorized = (message = '로그인이 필요합니다.') => new ApiError(401, ErrorCode.UNAUTHORIZED, message);
export const forbidden = (message = '권한이 없습니다.') => new ApiError(403, ErrorCode.FORBIDDEN, message);
export const conflict = (message: string, fields?: Record<string, string[]>, data?: unknown) =>
  new ApiError(409, ErrorCode.CONFLICT, message, fields, undefined, data);
export const unprocessable = (message: string, fields?: Record<string, string[]>) =>
  new ApiError(422, ErrorCode.UNPROCESSABLE, message, fields);

/** Seconds a client is asked to wait (Retry-After) after a 503 of a database fault: a restart or failover takes a few. */
export const RETRY_AFTER_SECONDS = 5;

/** 503 while the database cannot answer (src/api/db/errors.ts isDatabaseUnavailable): nothing is wrong with the request, try again shortly. */
export const serviceUnavailable = (message = '일시적으로 서비스를 이용할 수 없습니다. 잠시 후 다시 시도해주세요.') =>
  new ApiError(503, ErrorCode.UNAVAILABLE, message, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
