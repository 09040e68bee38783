import { Hono } from 'hono';
import { createFactory, createMiddleware } from 'hono/factory';
import {
  CheckEmailSchema,
  CloseAccountSchema,
  IdentityCodeSchema,
  LoginSchema,
  RefreshSchema,
  SendCodeSchema,
  SignupSchema,
  SocialLoginSchema,
  UpdateAccountSchema,
  VerifyCodeSchema,
} from '../../domain/schemas/accounts';
import type { AccountView, EmailCheckAnswer, IdentityAnswer, TokenAnswer, VerifyCodeAnswer } from '../../domain/accounts';
import { unauthorized } from '../errors';
import { ok, validJson, type AppEnv, type Ctx } from '../http';
import { requireUser } from '../auth/guards';
import { ipLimit, limiterFor, passwordLock } from '../middleware/rate-limit';
import { getAccount } from './account-view';
import { attachIdentity, emailTaken, signup, socialLogin, updateAccount } from './accounts';
import { closeAccount, closurePreview } from './closure';
import type { ClosurePreview } from '../../domain/account-closure';
import { login, loginByEmail, recoverWithIdentity, revokeRefresh, rotateRefresh } from './sessions';
import { CODE_TTL_SECONDS, checkCode, createCode } from './verification-codes';
import { resolveIdentity } from './identity';
import { sendMail } from './mail';
import { ensureConfigured, exchangeCode, type SocialProvider } from './oauth';
import { sessionUser } from '../auth/session-check';

const MINUTE = 60_000;
const bearer = (c: Ctx) => c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;

/** An unconfigured provider (or Apple) is 501 before the body is looked at. */
const providerConfigured = createMiddleware<AppEnv>(async (c, next) => {
  ensureConfigured(c.var.deps.config, c.req.param('provider') as SocialProvider);
  await next();
});

const signupHandlers = createFactory<AppEnv>().createHandlers(ipLimit('signup', 10, 10 * MINUTE), validJson(SignupSchema), async (c) => {
  const input = c.req.valid('json');
  const { db, config } = c.var.deps;
  const identity = await resolveIdentity(db, config, input.identity_code);
  return ok(c, (await signup(db, config, input, identity, c.var.deps.clock.now())) satisfies TokenAnswer, 201);
});

/** /accounts: signup, login (email and social), tokens, recovery, the current account. */
export const accountsRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, (await getAccount(c.var.deps.db, c.var.userId)) satisfies AccountView))
  .post('/', ...signupHandlers)
  .post('/signup', ...signupHandlers)
  .put('/', requireUser, validJson(UpdateAccountSchema), async (c) => {
    const lockFor = (account: string) => passwordLock(c.var.deps, account);
    return ok(c, (await updateAccount(c.var.deps.db, c.var.userId, c.req.valid('json'), { sid: c.var.sessionId }, lockFor, c.var.deps.clock.now())) satisfies AccountView);
  })
  // 회원 탈퇴: refused (409) while anything runs (docs/decisions/accounts.md); the preview says what.
  .get('/withdrawal', requireUser, async (c) => ok(c, (await closurePreview(c.var.deps.db, c.var.userId, c.var.deps.clock.now())) satisfies ClosurePreview))
  .delete('/', requireUser, validJson(CloseAccountSchema), async (c) => {
    const lockFor = (account: string) => passwordLock(c.var.deps, account);
    await closeAccount(c.var.deps.db, c.var.userId, c.req.valid('json'), { sid: c.var.sessionId }, lockFor, c.var.deps.clock.now());
    return ok(c, { withdrawn: true });
  })
  .post('/check-email', ipLimit('check-email', 30, MINUTE), validJson(CheckEmailSchema), async (c) => {
    const { email } = c.req.valid('json');
    const taken = await emailTaken(c.var.deps.db, email);
    return ok(c, { email, available: !taken, message: taken ? '이미 사용 중인 이메일입니다.' : '사용 가능한 이메일입니다.' } satisfies EmailCheckAnswer);
  })
  .post('/login', ipLimit('login', 30, 10 * MINUTE), validJson(LoginSchema), async (c) => {
    const { email, password } = c.req.valid('json');
    const lock = passwordLock(c.var.deps, email);
    await lock.check();
    try {
      const result = await login(c.var.deps.db, c.var.deps.config, email, password);
      await lock.passed();
      return ok(c, result satisfies TokenAnswer);
    } catch (err) {
      await lock.failed();
      throw err;
    }
  })
  .post('/refresh', ipLimit('refresh', 60, 10 * MINUTE), validJson(RefreshSchema), async (c) => {
    return ok(c, (await rotateRefresh(c.var.deps.db, c.var.deps.config, c.req.valid('json').refresh_token)) satisfies TokenAnswer);
  })
  .post('/logout', validJson(RefreshSchema), async (c) => {
    await revokeRefresh(c.var.deps.db, c.req.valid('json').refresh_token);
    return ok(c, { logged_out: true });
  })
  .post('/portone', ipLimit('identity', 30, 10 * MINUTE), validJson(IdentityCodeSchema), async (c) => {
    const { identity_code } = c.req.valid('json');
    const { db, config } = c.var.deps;
    const identity = await resolveIdentity(db, config, identity_code);
    // A logged-in account without a verified person (e.g. a social signup) gets this one;
    // a stale token on the signup page is simply ignored.
    const token = bearer(c);
    const userId = token ? await sessionUser(db, config, token).then((s) => s.userId, () => null) : null;
    if (userId) await attachIdentity(db, userId, identity);
    return ok(c, { verified: true, identity_code, name: identity.name, phone: identity.phone, birth_date: identity.birthDate, used: Boolean(identity.consumedAt), attached: Boolean(userId) } satisfies IdentityAnswer);
  })
  .post('/reset-password', ipLimit('recovery', 10, 10 * MINUTE), validJson(IdentityCodeSchema), async (c) => {
    const { db, config } = c.var.deps;
    const identity = await resolveIdentity(db, config, c.req.valid('json').identity_code);
    return ok(c, (await recoverWithIdentity(db, config, identity)) satisfies TokenAnswer);
  })
  .post('/send-code', ipLimit('send-code', 10, 10 * MINUTE), validJson(SendCodeSchema), async (c) => {
    const { email, purpose } = c.req.valid('json');
    const deps = c.var.deps;
    await limiterFor(deps).hit('send-code:target', email, 3, 10 * MINUTE);
    const code = await createCode(deps.db, deps.config, email, purpose);
    if (code) {
      await sendMail(deps, {
        to: email,
        subject: purpose === 'reset' ? '[LUXE 구독] 비밀번호 재설정 인증번호' : '[LUXE 구독] 이메일 인증번호',
        text: `인증번호: ${code}\n\n${CODE_TTL_SECONDS / 60}분 안에 입력해주세요. 요청하지 않으셨다면 이 메일을 무시하세요.`,
      });
    }
    // The same answer whether or not an account exists for 'reset'.
    return ok(c, { sent: true, expires_in: CODE_TTL_SECONDS });
  })
  .post('/verify-code', ipLimit('verify-code', 30, 10 * MINUTE), validJson(VerifyCodeSchema), async (c) => {
    const { email, purpose, code } = c.req.valid('json');
    const { db, config } = c.var.deps;
    await checkCode(db, config, email, purpose, code);
    if (purpose === 'reset') {
      const tokens = await loginByEmail(db, config, email);
      if (!tokens) throw unauthorized('계정을 찾을 수 없습니다.');
      return ok<VerifyCodeAnswer>(c, { verified: true, ...tokens });
    }
    return ok<VerifyCodeAnswer>(c, { verified: true });
  })
  .post('/:provider{kakao|google|naver|apple}', ipLimit('social', 30, 10 * MINUTE), providerConfigured, validJson(SocialLoginSchema), async (c) => {
    const provider = c.req.param('provider') as SocialProvider;
    const input = c.req.valid('json');
    const { db, config } = c.var.deps;
    const origin = c.req.header('origin') ?? config.siteUrl ?? new URL(c.req.url).origin;
    const redirectUri = input.redirect_uri ?? new URL(`/login/${provider}`, origin).toString();
    const profile = await exchangeCode(config, provider, { code: input.code, redirectUri, state: input.state });
    return ok(c, (await socialLogin(db, config, profile)) satisfies TokenAnswer);
  });
