import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

// A licence number is kept only to check it again before each handover: sealed under LICENCE_KEY,
// never logged, never answered; its HMAC finds the same licence registered twice.

/** base64(iv · tag · ciphertext) under AES-256-GCM. */
export function sealNumber(digits: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(digits, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export function openNumber(sealed: string, key: Buffer): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function numberDigest(digits: string, key: Buffer): string {
  return createHmac('sha256', key).update(`licence|${digits}`).digest('hex');
}
