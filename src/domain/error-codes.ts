/**
 * The codes the islands compare with, one by one: a page's script then carries these numbers,
 * not the whole table below (which only the server and its tests need).
 */
export const VALIDATION_CODE = 1001 as const;
export const TOKEN_EXPIRED_CODE = 1102 as const;
export const CONFLICT_CODE = 1109 as const;
export const PAYMENT_DECLINED_CODE = 1202 as const;
export const INTERNAL_CODE = 1500 as const;

/** Error codes of the API envelope; 0 is success. Clients switch on these, never on messages. */
export const ErrorCode = {
  OK: 0,
  VALIDATION: VALIDATION_CODE,
  NOT_FOUND: 1004,
  UNAUTHORIZED: 1101,
  TOKEN_EXPIRED: TOKEN_EXPIRED_CODE,
  FORBIDDEN: 1103,
  /** 403: the account has not passed identity verification (ordering needs it); the page leads to verification. */
  IDENTITY_REQUIRED: 1106,
  /** 405: the path exists, the method does not (the answer's Allow header lists the methods). */
  METHOD_NOT_ALLOWED: 1105,
  /** 413: an upload over its size limit (a photo over 25 MB); the rest of the body is not read. */
  PAYLOAD_TOO_LARGE: 1113,
  /** 415: a request body that is not application/json. */
  UNSUPPORTED_MEDIA_TYPE: 1115,
  CONFLICT: CONFLICT_CODE,
  RATE_LIMITED: 1129,
  UNPROCESSABLE: 1122,
  PAYMENT: 1201,
  /** 422: the card was declined; the message is the provider's reason in Korean and nothing was spent. */
  PAYMENT_DECLINED: PAYMENT_DECLINED_CODE,
  NOT_CONFIGURED: 1301,
  INTERNAL: INTERNAL_CODE,
  /** 503: the database is unreachable or too slow (a restart, a failover); the answer's Retry-After says when to try again. */
  UNAVAILABLE: 1503,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Failure envelope: a readable Korean message and per-field messages. */
export interface ApiFailure {
  code: Exclude<ErrorCodeValue, 0>;
  message: string;
  errors?: Record<string, string[]>;
}
