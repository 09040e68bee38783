/** Error codes of the API envelope; 0 is success. Clients switch on these, never on messages. */
export const ErrorCode = {
  OK: 0,
  VALIDATION: 1001,
  NOT_FOUND: 1004,
  UNAUTHORIZED: 1101,
  TOKEN_EXPIRED: 1102,
  FORBIDDEN: 1103,
  /** 403: the account has not passed identity verification (ordering needs it); the page leads to verification. */
  IDENTITY_REQUIRED: 1106,
  /** 405: the path exists, the method does not (the answer's Allow header lists the methods). */
  METHOD_NOT_ALLOWED: 1105,
  /** 413: an upload over its size limit (a photo over 25 MB); the rest of the body is not read. */
  PAYLOAD_TOO_LARGE: 1113,
  /** 415: a request body that is not application/json. */
  UNSUPPORTED_MEDIA_TYPE: 1115,
  CONFLICT: 1109,
  RATE_LIMITED: 1129,
  UNPROCESSABLE: 1122,
  PAYMENT: 1201,
  /** 422: the card was declined; the message is the provider's reason in Korean and nothing was spent. */
  PAYMENT_DECLINED: 1202,
  NOT_CONFIGURED: 1301,
  INTERNAL: 1500,
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
