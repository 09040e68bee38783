import { describe, expect, it } from 'vitest';
import { formatPhone, isMobile, normalizePhone, sameName } from '../../../src/domain/accounts';
import { IdentityCodeSchema, LoginSchema, SignupSchema, UpdateAccountSchema } from '../../../src/domain/schemas/accounts';

describe('phones', () => {
  it('normalises to digits, +82 included', () => {
    expect(normalizePhone('010-1234-5678')).toBe('01012345678');
    expect(normalizePhone('+82 10 1234 5678')).toBe('01012345678');
    expect(normalizePhone(' 010 123 4567 ')).toBe('0101234567');
  });
  it('accepts Korean mobile numbers only', () => {
    expect(isMobile('01012345678')).toBe(true);
    expect(isMobile('0111234567')).toBe(true);
    expect(isMobile('0212345678')).toBe(false);
    expect(isMobile('123')).toBe(false);
  });
  it('formats for display', () => {
    expect(formatPhone('01012345678')).toBe('010-1234-5678');
    expect(formatPhone('0111234567')).toBe('011-123-4567');
  });
  it('formats Seoul, area, internet and 대표번호 numbers, and dashed or +82 input, the same way', () => {
    expect(formatPhone('0269520808')).toBe('02-6952-0808');
    expect(formatPhone('021234567')).toBe('02-123-4567');
    expect(formatPhone('0315551234')).toBe('031-555-1234');
    expect(formatPhone('07012345678')).toBe('070-1234-5678');
    expect(formatPhone('15881234')).toBe('1588-1234');
    expect(formatPhone('02-6952-0808')).toBe('02-6952-0808');
    expect(formatPhone('+82 10 1234 5678')).toBe('010-1234-5678');
    expect(formatPhone('12345')).toBe('12345');
  });
});

describe('names', () => {
  it('ignore spaces and case', () => {
    expect(sameName('홍 길동', '홍길동')).toBe(true);
    expect(sameName('Kim Chul', 'kimchul')).toBe(true);
    expect(sameName('홍길동', '홍길순')).toBe(false);
  });
});

describe('schemas', () => {
  const valid = { name: '홍길동', mobile: '010-1234-5678', email: ' A@B.com ', password: 'secret', identity_code: 'iv-1' };
  it('signup normalises email and mobile; referrerPhone may be empty', () => {
    const out = SignupSchema.parse({ ...valid, referrerPhone: '' });
    expect(out.email).toBe('a@b.com');
    expect(out.mobile).toBe('01012345678');
    expect(out.referrerPhone).toBeUndefined();
  });
  it('signup: password at least 6 characters, Korean messages', () => {
    const r = SignupSchema.safeParse({ ...valid, password: '12345' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe('비밀번호는 6자 이상이어야 합니다.');
  });
  it('login requires email and password', () => {
    const r = LoginSchema.safeParse({});
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path[0])).toEqual(['email', 'password']);
  });
  it('identity code under either name', () => {
    expect(IdentityCodeSchema.parse({ identityVerificationId: 'x' })).toEqual({ identity_code: 'x' });
    expect(IdentityCodeSchema.safeParse({}).success).toBe(false);
  });
  it('update drops unknown fields', () => {
    expect(UpdateAccountSchema.parse({ password: 'secret1', ci_verified: true })).toEqual({ password: 'secret1' });
  });
});
