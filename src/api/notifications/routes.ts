import { and, eq, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { z } from 'zod';
import { MarketingCampaignSchema } from '../../domain/schemas/notifications';
import { inTransaction } from '../db/client';
import { users } from '../db/schema';
import { badRequest, forbidden } from '../errors';
import { fieldErrors, ok, rejectNul, validJson, type AppEnv, type Ctx } from '../http';
import { requireAdmin } from '../auth/guards';
import { emit } from './events';
import { verifyUnsubscribeToken } from './unsubscribe';
import { siteSecurityHeaders } from '../security-headers';
import { PALETTE } from '../../styles/palette';
import { recordAudit } from '../audit/audit';
import { rowTime } from '../jobs/clock';

const TokenQuerySchema = z.object({
  token: z.string({ error: '수신 거부 링크가 올바르지 않습니다.' }).min(1, { error: '수신 거부 링크가 올바르지 않습니다.' }).max(100, { error: '수신 거부 링크가 올바르지 않습니다.' }),
});

/** A browser (an HTML page back) rather than a script or a mail client's one-click POST (JSON). */
const wantsPage = (c: Ctx) => (c.req.header('accept') ?? '').includes('text/html');

const STYLE = `body{margin:0;background:${PALETTE.paper};color:${PALETTE.ink};font-family:Pretendard,system-ui,-apple-system,'Apple SD Gothic Neo','Noto Sans KR',sans-serif;word-break:keep-all}
.bar{height:56px;display:flex;align-items:center;padding:0 1rem;background:${PALETTE.ink};color:${PALETTE.paper};font-family:serif;font-size:1.25rem;letter-spacing:.35em}
main{max-width:30rem;margin:2.5rem auto;padding:0 1rem}.card{background:${PALETTE.white};border:1px solid ${PALETTE.line};padding:1.5rem}
h1{margin:0 0 1rem;font-size:1.375rem}p{line-height:1.7;font-size:.9375rem}a{color:inherit}
button{font:inherit;font-weight:600;padding:.85rem 1.25rem;border:1px solid ${PALETTE.ink};background:${PALETTE.ink};color:${PALETTE.paper};cursor:pointer;min-height:44px}
:focus-visible{outline:2px solid ${PALETTE.gold};outline-offset:2px}`;

/** A page of the site's look for the unsubscribe link, with the site's CSP and frame protection. */
function page(c: Ctx, status: 200 | 400 | 403, heading: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  const res = c.html(
    html`<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${heading} | LUXE</title><link rel="stylesheet" href="/fonts/pretendard/core.css"><link rel="stylesheet" href="/fonts/pretendard/pretendard.css"><style>${STYLE}</style></head>
<body><header class="bar">LUXE</header><main><div class="card"><h1>${heading}</h1>${body}</div></main></body></html>`,
    status,
  );
  return res;
}

/** The user the link's token names, or the refusal (a Korean page for browsers, the envelope otherwise). */
function userOf(c: Ctx): number {
  rejectNul(c.req.query());
  const parsed = TokenQuerySchema.safeParse(c.req.query());
  if (!parsed.success) throw badRequest('수신 거부 링크가 올바르지 않습니다.', fieldErrors(parsed.error));
  const userId = verifyUnsubscribeToken(c.var.deps.config.jwtSecret, parsed.data.token);
  if (userId === null) throw forbidden('수신 거부 링크가 올바르지 않거나 변조되었습니다.');
  return userId;
}

const refusedPage = (c: Ctx, err: unknown) =>
  page(c, err instanceof Error && 'status' in err && err.status === 400 ? 400 : 403, '링크를 확인할 수 없습니다', html`<p>수신 거부 링크가 올바르지 않거나 변조되었습니다. 메일에 있는 링크를 다시 눌러주시거나, 로그인한 뒤 마이페이지에서 수신 동의를 변경해주세요.</p><p><a href="/my">마이페이지로 가기</a></p>`);

/** The user of the link, or the refusal: a Korean page for a browser, thrown as the envelope otherwise. */
function linkUser(c: Ctx): number | Response | Promise<Response> {
  try {
    return userOf(c);
  } catch (err) {
    if (wantsPage(c)) return refusedPage(c, err);
    throw err;
  }
}

/**
 * Marketing consent without a login: the unsubscribe link of marketing emails (a token signed with
 * the server's secret, src/api/notifications/unsubscribe.ts). GET shows what the link does and
 * a button; POST (the button, or a mail client's one-click List-Unsubscribe-Post) withdraws the
 * consent.
 */
export const notificationRoutes = new Hono<AppEnv>()
  .use('/unsubscribe', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      for (const [name, value] of Object.entries(siteSecurityHeaders({ apiBaseUrl: process.env.PUBLIC_API_BASE_URL }))) c.res.headers.set(name, value);
    }
    c.res.headers.set('cache-control', 'no-store');
  })
  .get('/unsubscribe', async (c) => {
    const userId = await linkUser(c);
    if (typeof userId !== 'number') return userId;
    const [user] = await c.var.deps.db.select({ consent: users.marketingConsent }).from(users).where(and(eq(users.id, userId), isNull(users.deletedAt)));
    const consent = Boolean(user?.consent);
    if (!wantsPage(c)) return ok(c, { marketing_consent: consent });
    if (!consent) return page(c, 200, '이미 수신 거부되었습니다', html`<p>LUXE의 광고성 정보(이벤트·혜택 안내)를 받지 않도록 설정되어 있습니다. 예약과 결제 안내는 계속 보내드립니다.</p><p><a href="/">홈으로 가기</a></p>`);
    return page(
      c,
      200,
      '광고성 정보 수신 거부',
      html`<p>LUXE의 이벤트·혜택 안내를 더 이상 받지 않으시려면 아래 버튼을 눌러주세요. 예약과 결제 안내는 계속 보내드립니다.</p>
<form method="post"><button type="submit">수신 거부하기</button></form>`,
    );
  })
  .post('/unsubscribe', async (c) => {
    const userId = await linkUser(c);
    if (typeof userId !== 'number') return userId;
    await c.var.deps.db.update(users).set({ marketingConsent: false, updatedAt: rowTime() }).where(eq(users.id, userId));
    if (!wantsPage(c)) return ok(c, { marketing_consent: false });
    return page(c, 200, '수신 거부가 완료되었습니다', html`<p>앞으로 LUXE의 광고성 정보를 보내드리지 않습니다. 마음이 바뀌시면 마이페이지에서 언제든 다시 수신 동의할 수 있습니다.</p><p><a href="/">홈으로 가기</a></p>`);
  });

/** Staff: a marketing announcement to every customer who consented (each once per campaign); 202 with how many were queued. */
export const adminNotificationRoutes = new Hono<AppEnv>()
  .post('/notifications/marketing', requireAdmin, validJson(MarketingCampaignSchema), async (c) => {
    const input = c.req.valid('json');
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const queued = await inTransaction(db, async (tx) => {
      const audience = await tx.select({ id: users.id }).from(users).where(and(eq(users.marketingConsent, true), isNull(users.deletedAt)));
      let n = 0;
      for (const u of audience) {
        const event = { type: 'marketing.announcement' as const, userId: u.id, campaign: input.campaign, title: input.title, body: input.body, path: input.path };
        if (await emit(tx, `marketing.announcement:${input.campaign}:${u.id}`, event, now)) n++;
      }
      await recordAudit(tx, c.get('actor'), { action: 'create', entity: 'marketing_campaign', entityId: input.campaign, before: null, after: { ...input, queued: n } });
      return n;
    });
    return ok(c, { campaign: input.campaign, queued }, 202);
  });
