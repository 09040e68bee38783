import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ErrorCode } from '../../domain/error-codes';
import { ApiError } from '../errors';
import { wallMs } from '../jobs/clock';

/** Access tokens live 24 hours, the session length the storefront stores. */
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;
/** Refresh tokens live 30 days and are rotated on every use. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;

const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * A signed access token for a user's session (HS256, `sub` = user id, `sid` = the session's
 * refresh-token family, checked on every request so logout and revocation end it at once).
 */
export async function signAccessToken(secret: string, userId: number, sid: string, now = wallMs()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ typ: 'access', sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

/** What a valid access token says: the user and the session (refresh family) it belongs to. */
export interface AccessClaims {
  userId: number;
  sid: string;
}

/** Longest session id (refresh_tokens.family_id is a UUID in varchar(36)). */
const SID_MAX_LENGTH = 36;

/**
 * The user and session of a valid access token; 401 with a Korean message otherwise. A token
 * without a session id (signed before sessions were revocable) is answered like an expired
 * one, so the browser clears it and the user logs in again.
 */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw sessionEnded('로그인이 만료되었습니다. 다시 로그인해주세요.');
    throw badToken();
  }
  const id = Number(payload.sub);
  if (payload.typ !== 'access' || !Number.isInteger(id) || id <= 0) throw badToken();
  const sid = payload.sid;
  if (sid === undefined) throw sessionEnded('로그인이 만료되었습니다. 다시 로그인해주세요.');
  if (typeof sid !== 'string' || !sid || sid.length > SID_MAX_LENGTH) throw badToken();
  return { userId: id, sid };
}

const badToken = () => new ApiError(401, ErrorCode.UNAUTHORIZED, '로그인 정보가 올바르지 않습니다. 다시 로그인해주세요.');

/** 401 that the browser treats as the end of the session (it clears the stored tokens). */
export const sessionEnded = (message = '로그인 세션이 종료되었습니다. 다시 로그인해주세요.') => new ApiError(401, ErrorCode.TOKEN_EXPIRED, message);

/** A random opaque token (refresh tokens, codes) and the SHA-256 hex stored in its place. */
export function newOpaqueToken(bytes = 32): { token: string; hash: string } {
  const token = randomBytes(bytes).toString('base64url');
  return { token, hash: sha256(token) };
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
