import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { isMobile, normalizePhone } from '../../domain/accounts';
import { isCalendarDate } from '../../domain/dates';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { badRequest } from '../errors';
import { formBody, validQuery, type AppEnv } from '../http';
import { isLocalClient, localOrShared, sandboxOnly } from './access';
import { limitIp } from '../middleware/rate-limit';
import { safeReturnUrl } from '../return-url';
import { sandboxPage } from './page';
import { recordSandboxVerification } from '../accounts/identity';

const IdField = z
  .string({ error: 'identityVerificationId가 필요합니다.' })
  .regex(/^[A-Za-z0-9_-]{8,120}$/, { error: 'identityVerificationId가 올바르지 않습니다.' });

const QuerySchema = z.object({
  identityVerificationId: IdField,
  redirectUrl: z.string({ error: 'redirectUrl이 필요합니다.' }).min(1, { error: 'redirectUrl이 필요합니다.' }).max(2000),
  name: z.string().max(80).optional(),
  phone: z.string().max(20).optional(),
});


/** Sandbox verifications per address of another machine (SANDBOX=shared); this machine's tester is not limited. */
export const SANDBOX_VERIFICATIONS = { max: 10, windowMs: 10 * 60_000 } as const;

/** Back to the page that launched the verification, with PortOne's redirect query. */
function back(url: URL, params: Record<string, string>) {
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  url.searchParams.set('transactionType', 'IDENTITY_VERIFICATION');
  return `${url.pathname}${url.search}${url.hash}`;
}

const page = (q: z.infer<typeof QuerySchema>, error?: string) =>
  sandboxPage({
    title: '테스트 본인인증 (샌드박스)',
    notice: '테스트 환경 · 실제 본인인증이 아닙니다',
    heading: '본인인증 샌드박스',
    body: html`<p>PortOne이 설정되지 않아 테스트용 본인인증 화면이 표시됩니다. 입력한 이름과 휴대폰 번호가 인증된 것으로 기록됩니다.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="identity/verify">
<input type="hidden" name="identityVerificationId" value="${q.identityVerificationId}">
<input type="hidden" name="redirectUrl" value="${q.redirectUrl}">
<label for="name">이름</label><input id="name" name="name" value="${q.name ?? ''}" required maxlength="80" autocomplete="name">
<label for="phone">휴대폰 번호</label><input id="phone" name="phone" value="${q.phone ?? ''}" required inputmode="tel" autocomplete="tel">
<label for="birthDate">생년월일</label><input id="birthDate" name="birthDate" type="date" value="1990-01-01" required>
<div class="actions"><button class="ok" type="submit">인증 완료</button>
<button class="fail" type="submit" formaction="identity/fail" formnovalidate>인증 실패</button>
<button class="cancel" type="submit" formaction="identity/cancel" formnovalidate>취소하고 돌아가기</button></div>
</form>`,
  });

/**
 * The identity-verification sandbox standing in for PortOne while it is not configured:
 * a labelled test page where a tester types a name and a phone; it records the verified
 * person and returns to redirectUrl with `identityVerificationId` (or `code`/`message`).
 */
const onlyInSandbox = sandboxOnly('본인인증 샌드박스는 PortOne이 설정되지 않은 개발·테스트 환경에서만 사용할 수 있습니다.');

export const sandboxIdentityRoutes = new Hono<AppEnv>()
  .use('/identity/*', onlyInSandbox, localOrShared)
  .use('/identity', onlyInSandbox, localOrShared)
  .get('/identity', validQuery(QuerySchema), (c) => {
    const q = c.req.valid('query');
    safeReturnUrl(q.redirectUrl, c.req.header('host'), c.var.deps.config.siteUrl);
    return c.html(page(q));
  })
  .post('/identity/:outcome{verify|fail|cancel}', async (c) => {
    const form = await formBody(c);
    const str = (k: string) => form[k] ?? '';
    const q = { identityVerificationId: str('identityVerificationId'), redirectUrl: str('redirectUrl'), name: str('name').trim(), phone: str('phone') };
    const parsed = QuerySchema.safeParse(q);
    if (!parsed.success) throw badRequest('본인인증 요청이 올바르지 않습니다.', { identityVerificationId: ['올바르지 않은 요청입니다.'] });
    const url = safeReturnUrl(q.redirectUrl, c.req.header('host'), c.var.deps.config.siteUrl);
    if (c.req.param('outcome') === 'fail') {
      return c.redirect(back(url, { identityVerificationId: q.identityVerificationId, code: 'IDENTITY_VERIFICATION_FAILED', message: '테스트 본인인증이 취소되었습니다.' }), 303);
    }
    if (c.req.param('outcome') === 'cancel') {
      return c.redirect(back(url, { identityVerificationId: q.identityVerificationId, code: 'IDENTITY_VERIFICATION_FAILED', message: '본인인증을 취소했습니다.' }), 303);
    }
    const birthDate = str('birthDate');
    const phone = normalizePhone(q.phone);
    if (!q.name || !isMobile(phone) || !isCalendarDate(birthDate)) {
      return c.html(page(parsed.data, '이름, 올바른 휴대폰 번호, 생년월일을 모두 입력해주세요.'), 400);
    }
    // Verifying as anyone is the sandbox's point on this machine; elsewhere (SANDBOX=shared) it is
    // limited per address and never proves a member's identity (a password reset would hand over the account).
    if (!isLocalClient(c)) {
      await limitIp(c, 'sandbox-identity', SANDBOX_VERIFICATIONS.max, SANDBOX_VERIFICATIONS.windowMs);
      const [member] = await c.var.deps.db.select({ id: users.id }).from(users).where(eq(users.mobile, phone)).limit(1);
      if (member) return c.html(page(parsed.data, '공유 테스트 환경에서는 이미 가입된 회원의 휴대폰 번호로 본인인증할 수 없습니다. 새 번호로 시험하거나 서버가 실행 중인 컴퓨터에서 인증해주세요.'), 403);
    }
    await recordSandboxVerification(c.var.deps.db, { verificationId: q.identityVerificationId, name: q.name, phone, birthDate });
    return c.redirect(back(url, { identityVerificationId: q.identityVerificationId }), 303);
  });
