import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_RULE_MESSAGES, isMobile, normalizePhone } from '../accounts';

export const emailField = z
  .string({ error: '이메일을 입력해주세요.' })
  .trim()
  .toLowerCase()
  .min(1, { error: '이메일을 입력해주세요.' })
  .max(254, { error: '이메일은 254자 이하로 입력해주세요.' })
  .pipe(z.email({ error: '올바른 이메일 주소를 입력해주세요.' }));

export const passwordField = z
  .string({ error: '비밀번호를 입력해주세요.' })
  .min(MIN_PASSWORD_LENGTH, { error: PASSWORD_RULE_MESSAGES.short })
  .max(MAX_PASSWORD_LENGTH, { error: PASSWORD_RULE_MESSAGES.long });

const mobileField = z
  .string({ error: '휴대폰 번호를 입력해주세요.' })
  .trim()
  .min(1, { error: '휴대폰 번호를 입력해주세요.' })
  .max(20, { error: '휴대폰 번호가 너무 깁니다.' })
  .transform(normalizePhone)
  .refine(isMobile, { error: '올바른 휴대폰 번호를 입력해주세요. (예: 010-1234-5678)' });

const identityCode = z
  .string({ error: '본인인증을 진행해주세요.' })
  .trim()
  .min(1, { error: '본인인증을 진행해주세요.' })
  .max(120, { error: '본인인증 번호가 올바르지 않습니다.' });

/** An optional phone: '' and null read as absent. */
const optionalMobile = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z
    .string({ error: '추천인 휴대폰 번호는 문자열이어야 합니다.' })
    .max(20, { error: '추천인 휴대폰 번호가 너무 깁니다.' })
    .transform(normalizePhone)
    .refine(isMobile, { error: '추천인 휴대폰 번호가 올바르지 않습니다.' })
    .optional(),
);

/** Body of POST /accounts (alias /accounts/signup): the spec's signup payload. */
export const SignupSchema = z.object({
  name: z.string({ error: '이름을 입력해주세요.' }).trim().min(1, { error: '이름을 입력해주세요.' }).max(80, { error: '이름은 80자 이하로 입력해주세요.' }),
  mobile: mobileField,
  email: emailField,
  password: passwordField,
  identity_code: identityCode,
  referrerPhone: optionalMobile,
  /** Optional marketing consent; terms and privacy consent are required by the form. */
  marketing_consent: z.boolean({ error: '마케팅 수신 동의 값이 올바르지 않습니다.' }).optional(),
  /** Optional, separate: (광고) messages also between 21:00 and 08:00 (정보통신망법 제50조③); only with marketing_consent. */
  marketing_night_consent: z.boolean({ error: '야간 광고 수신 동의 값이 올바르지 않습니다.' }).optional(),
});
export type SignupInput = z.infer<typeof SignupSchema>;

/** Body of POST /accounts/login. */
export const LoginSchema = z.object({
  email: emailField,
  // Any length is checked against the hash; only the upper bound guards the CPU.
  password: z.string({ error: '비밀번호를 입력해주세요.' }).min(1, { error: '비밀번호를 입력해주세요.' }).max(MAX_PASSWORD_LENGTH, { error: '이메일 또는 비밀번호가 올바르지 않습니다.' }),
});

/** Body of POST /accounts/check-email. */
export const CheckEmailSchema = z.object({ email: emailField });

/** Body of POST /accounts/refresh. */
export const RefreshSchema = z.object({
  refresh_token: z.string({ error: '리프레시 토큰이 필요합니다.' }).trim().min(1, { error: '리프레시 토큰이 필요합니다.' }).max(200, { error: '리프레시 토큰이 올바르지 않습니다.' }),
});

/** Body of POST /accounts/portone and /accounts/reset-password; PortOne's own field name is accepted too. */
export const IdentityCodeSchema = z
  .object({ identity_code: identityCode.optional(), identityVerificationId: identityCode.optional() })
  .refine((v) => v.identity_code || v.identityVerificationId, { error: '본인인증을 진행해주세요.', path: ['identity_code'] })
  .transform((v) => ({ identity_code: (v.identity_code ?? v.identityVerificationId) as string }));

/** Body of PUT /accounts: every field optional; a password change needs the current one or a fresh login. */
export const UpdateAccountSchema = z
  .object({
    name: z.string({ error: '이름은 문자열이어야 합니다.' }).trim().min(1, { error: '이름을 입력해주세요.' }).max(80, { error: '이름은 80자 이하로 입력해주세요.' }).optional(),
    email: emailField.optional(),
    password: passwordField.optional(),
    current_password: z.string({ error: '현재 비밀번호는 문자열이어야 합니다.' }).max(MAX_PASSWORD_LENGTH).optional(),
    profile_image: z.union([z.url({ error: '프로필 이미지는 URL이어야 합니다.' }).max(2000), z.null()]).optional(),
    marketing_consent: z.boolean({ error: '마케팅 수신 동의 값이 올바르지 않습니다.' }).optional(),
    marketing_night_consent: z.boolean({ error: '야간 광고 수신 동의 값이 올바르지 않습니다.' }).optional(),
  });
export type UpdateAccountInput = z.infer<typeof UpdateAccountSchema>;

/** Body of DELETE /accounts (회원 탈퇴): the current password, when the account has one. */
export const CloseAccountSchema = z.object({
  current_password: z.string({ error: '현재 비밀번호는 문자열이어야 합니다.' }).max(MAX_PASSWORD_LENGTH, { error: '현재 비밀번호가 올바르지 않습니다.' }).optional(),
});

/** What a code is for. */
const CODE_PURPOSES = ['email', 'reset'] as const;

/** Body of POST /accounts/send-code. */
export const SendCodeSchema = z.object({
  email: emailField,
  purpose: z.enum(CODE_PURPOSES, { error: `purpose는 ${CODE_PURPOSES.join(', ')} 중 하나여야 합니다.` }).default('email'),
});

/** Body of POST /accounts/verify-code. */
export const VerifyCodeSchema = z.object({
  email: emailField,
  purpose: z.enum(CODE_PURPOSES, { error: `purpose는 ${CODE_PURPOSES.join(', ')} 중 하나여야 합니다.` }).default('email'),
  code: z.string({ error: '인증번호를 입력해주세요.' }).trim().regex(/^\d{6}$/, { error: '인증번호 6자리를 입력해주세요.' }),
});

/** Body of the social logins (POST /accounts/kakao, /google, /naver, /apple). */
export const SocialLoginSchema = z.object({
  code: z.string({ error: '인가 코드가 필요합니다.' }).trim().min(1, { error: '인가 코드가 필요합니다.' }).max(2000, { error: '인가 코드가 올바르지 않습니다.' }),
  redirect_uri: z.url({ error: 'redirect_uri가 올바르지 않습니다.' }).max(500).optional(),
  state: z.string().max(500).optional(),
});
