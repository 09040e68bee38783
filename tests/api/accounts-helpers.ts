import { randomBytes } from 'node:crypto';
import type { TestContext } from './helpers';

/** Runs the identity sandbox page as a tester would; returns the identityVerificationId. */
export async function sandboxVerify(ctx: TestContext, person: { name: string; phone: string; birthDate?: string }): Promise<string> {
  const id = `identity-verification-${randomBytes(8).toString('hex')}`;
  const body = new URLSearchParams({ identityVerificationId: id, redirectUrl: '/signup', name: person.name, phone: person.phone, birthDate: person.birthDate ?? '1990-01-01' });
  const res = await ctx.app.request('/sandbox/identity/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
    body: body.toString(),
  });
  if (res.status !== 303) throw new Error(`sandbox verification failed: ${res.status} ${await res.text()}`);
  return id;
}

let seq = 0;
/** A distinct person per call: a name, a mobile and an email no other test uses. */
export function newPerson(prefix = 'user') {
  seq += 1;
  const n = `${Date.now() % 1e6}${seq}`.padStart(8, '0').slice(-8);
  return { name: `홍길동${seq}`, mobile: `010${n}`, email: `${prefix}${seq}_${n}@example.com`, password: 'secret123' };
}

/** Verifies a new person in the sandbox and signs them up; returns the login answer and the person. */
export async function signupPerson(ctx: TestContext, overrides: Record<string, unknown> = {}, ip = '10.0.0.1') {
  const person = newPerson();
  const identity_code = await sandboxVerify(ctx, { name: person.name, phone: person.mobile });
  const res = await ctx.call('POST', '/accounts', { json: { ...person, identity_code, ...overrides }, headers: { 'x-forwarded-for': ip } });
  return { res, person, identity_code };
}
