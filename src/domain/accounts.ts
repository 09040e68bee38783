/** Pure account rules shared by the API and the signup/login islands. */

/** Minimum password length (spec: at least 6 characters). */
export const MIN_PASSWORD_LENGTH = 6;
/** Maximum password length; scrypt input is bounded so a huge body cannot burn CPU. */
export const MAX_PASSWORD_LENGTH = 128;

/** What a password that breaks the rule is told (the zod field of src/domain/schemas/accounts.ts says the same). */
export const PASSWORD_RULE_MESSAGES = {
  short: `비밀번호는 ${MIN_PASSWORD_LENGTH}자 이상이어야 합니다.`,
  long: `비밀번호는 ${MAX_PASSWORD_LENGTH}자 이하로 입력해주세요.`,
  mismatch: '비밀번호가 일치하지 않습니다.',
} as const;

/**
 * A new password and its confirmation by the one rule (signup, reset, the change on /my; the API's
 * zod field checks the same lengths): field errors, empty when both are fine.
 */
export function newPasswordErrors(password: string, confirm: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (password.length < MIN_PASSWORD_LENGTH) out.password = [PASSWORD_RULE_MESSAGES.short];
  else if (password.length > MAX_PASSWORD_LENGTH) out.password = [PASSWORD_RULE_MESSAGES.long];
  if (password !== confirm) out.password_confirm = [PASSWORD_RULE_MESSAGES.mismatch];
  return out;
}

/** Digits of a phone number: '010-1234-5678' and '+82 10 1234 5678' both become '01012345678'. */
export function normalizePhone(raw: string): string {
  let digits = raw.replace(/\D/g, '');
  if (digits.startsWith('82') && digits.length >= 11) digits = `0${digits.slice(2)}`;
  return digits;
}

/** A Korean mobile number after normalisation: 010/011/016/017/018/019 and 10–11 digits. */
export function isMobile(digits: string): boolean {
  return /^01[016789]\d{7,8}$/.test(digits);
}

/** Names compare without spaces and case, so '홍 길동' matches the verified '홍길동'. */
export function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, '').toLowerCase();
  return norm(a) === norm(b);
}

/**
 * A Korean phone number shown to people, the one place it is formatted: '01012345678' →
 * '010-1234-5678', '0269520808' → '02-6952-0808' (Seoul's 02), '0315551234' → '031-555-1234',
 * '15881234' → '1588-1234', '+82 10 …' as 010-…. Anything else comes back as it was given.
 */
export function formatPhone(raw: string): string {
  const digits = normalizePhone(raw);
  const m =
    /^(02)(\d{3,4})(\d{4})$/.exec(digits) ??
    /^(01[016789]|0[3-6][1-5]|070|050\d?)(\d{3,4})(\d{4})$/.exec(digits) ??
    /^(1[5-9]\d{2})(\d{4})$/.exec(digits);
  return m ? m.slice(1).join('-') : raw.trim();
}

/** The account as the API shows it (spec: id, username, name, email, mobile, profile_image, ci_verified, referral_code, point in won). */
export interface AccountView {
  id: number;
  username: string;
  name: string | null;
  email: string | null;
  mobile: string | null;
  profile_image: string | null;
  ci_verified: boolean;
  referral_code: string;
  point: number;
}

/** The account as GET /accounts answers it: the spec's fields and a few of ours. */
export interface AccountDetails extends AccountView {
  social_provider: string | null;
  marketing_consent: boolean;
  /** The separate consent to (광고) messages between 21:00 and 08:00 KST. */
  marketing_night_consent: boolean;
  /** False for a social signup that never set one (/my offers to set it). */
  has_password: boolean;
  created_at: string;
}

/** What login, signup, social login, refresh and recovery answer with (the access token lives expires_in seconds; the account as GET /accounts shows it). */
export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user: AccountDetails;
}

/**
 * POST /accounts/verify-code: the code was right. A 'reset' code also logs its owner in (the reset
 * flow then sets a new password): that answer carries the session beside `verified`.
 */
export type VerifyCodeAnswer = { verified: true } | ({ verified: true } & TokenAnswer);

/** One line of the point ledger (won; negative when spent). */
interface PointTransaction {
  id: number;
  amount: number;
  reason: string;
  description: string | null;
  created_at: string;
}

/** GET /users/point-transactions: the balance (won) and the ledger, newest first. */
export interface PointHistoryAnswer {
  point: number;
  point_transactions: PointTransaction[];
}

/** POST /users/point-coupons/{code}: the points credited and the new balance (won). */
export interface PointCouponAnswer {
  amount: number;
  name: string;
  point: number;
}

/** GET and POST /users/referrals: my code, the reward (won), people I referred and who referred me. */
export interface ReferralStatus {
  referral_code: string | null;
  reward: number;
  referrals_given: { referree_username: string; created_at: string }[];
  referrals_received: { referrer_username: string; created_at: string }[];
}

/** POST /accounts/check-email. */
export interface EmailCheckAnswer {
  email: string;
  available: boolean;
  message: string;
}

/** POST /accounts/portone: who the verification names; `used` when it already served a signup or recovery, `attached` when it was added to the logged-in account. */
export interface IdentityAnswer {
  verified: true;
  identity_code: string;
  name: string | null;
  phone: string | null;
  /** YYYY-MM-DD. */
  birth_date: string | null;
  used: boolean;
  attached: boolean;
}
