import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ErrorCode } from '../../domain/error-codes';
import { ApiError } from '../errors';

/** Access tokens live 24 hours, the session length the storefront stores. */
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;
/** Refresh tokens live 30 days and are rotated on every use. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;

const key = (secret: string) => new TextEncoder().encode(secret);

/** A signed access token for a user (HS256, `sub` = user id). */
export async function signAccessToken(secret: string, userId: number, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ typ: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

/** The user id in a valid access token; 401 with a Korean message otherwise. */
export async function verifyAccessToken(secret: string, token: string): Promise<number> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] });
    const id = Number(payload.sub);
    if (payload.typ !== 'access' || !Number.isInteger(id) || id <= 0) throw new Error('bad subject');
    return id;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) {
      throw new ApiError(401, ErrorCode.TOKEN_EXPIRED, '로그인이 만료되었습니다. 다시 로그인해주세요.');
    }
    throw new ApiError(401, ErrorCode.UNAUTHORIZED, '로그인 정보가 올바르지 않습니다. 다시 로그인해주세요.');
  }
}

/** A random opaque token (refresh tokens, codes) and the SHA-256 hex stored in its place. */
export function newOpaqueToken(bytes = 32): { token: string; hash: string } {
  const token = randomBytes(bytes).toString('base64url');
  return { token, hash: sha256(token) };
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
