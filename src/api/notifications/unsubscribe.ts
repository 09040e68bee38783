import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../env';

/** The public origin messages link to: SITE_URL, else this server on localhost. */
export function siteOrigin(config: Pick<Config, 'siteUrl' | 'port'>): string {
  return (config.siteUrl ?? `http://localhost:${config.port || 4321}`).replace(/\/+$/, '');
}

const signature = (secret: string, userId: number) => createHmac('sha256', secret).update(`luxe:unsubscribe:v1:${userId}`).digest('base64url');

/**
 * The token of a marketing email's unsubscribe link: the user id and an HMAC of it under the
 * server's JWT secret, so the link works without a login and cannot be made for another user.
 */
export function unsubscribeToken(secret: string, userId: number): string {
  return `${userId}.${signature(secret, userId)}`;
}

/** The user a token names, or null when it is malformed or its signature is not ours. */
export function verifyUnsubscribeToken(secret: string, token: string): number | null {
  const m = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const userId = Number(m[1]);
  if (userId > 2_147_483_647) return null;
  const expected = Buffer.from(signature(secret, userId));
  const given = Buffer.from(m[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
}

/** The absolute unsubscribe link of a user's marketing emails. */
export function unsubscribeUrl(config: Pick<Config, 'siteUrl' | 'port' | 'jwtSecret'>, userId: number): string {
  return `${siteOrigin(config)}/api/notifications/unsubscribe?token=${unsubscribeToken(config.jwtSecret, userId)}`;
}
