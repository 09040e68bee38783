import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { formatKoreaDateTime } from '../../domain/dates';
import { decimal } from '../../domain/schemas/common';
import type { Db } from '../db/client';
import { notificationMessages } from '../db/schema';
import { ok, validQuery, type AppEnv } from '../http';
import { localOrStaff, sandboxOnly } from './access';
import { sandboxPage } from './page';

const OutboxQuerySchema = z.object({
  to: z
    .string({ error: 'to는 문자열이어야 합니다.' })
    .trim()
    .min(1, { error: '받는 사람(이메일 또는 휴대폰 번호)을 입력해주세요.' })
    .max(254, { error: '받는 사람은 254자 이하여야 합니다.' })
    .transform((v) => (v.includes('@') ? v.toLowerCase() : v.replace(/\D/g, '') || v))
    .optional(),
  limit: decimal(z.number({ error: 'limit은 숫자여야 합니다.' }).int({ error: 'limit은 정수여야 합니다.' }).min(1, { error: 'limit은 1 이상이어야 합니다.' }).max(200, { error: 'limit은 200 이하여야 합니다.' })).default(50),
});

const onlyInSandbox = sandboxOnly('샌드박스 발신함은 샌드박스가 켜진 개발·테스트 환경에서만 볼 수 있습니다.');

const CHANNEL_LABEL: Record<string, string> = { email: '이메일', kakao: '카카오 알림톡' };
const STATUS_LABEL: Record<string, string> = { PENDING: '발송 대기', SENT: '발송됨', SKIPPED: '발송 안 함', FAILED: '발송 실패' };

/**
 * The sandbox outbox: while the sandbox runs, every message the server sent (or would send without
 * a provider) is readable here, newest first: `GET /sandbox/outbox?to=` as JSON for scripts and
 * `/sandbox/outbox/page` as a page. 404 once the sandbox is off, like the other sandbox pages. It holds
 * everyone's names, numbers and addresses: this machine's clients and staff only (sandbox-access.ts).
 */
export const sandboxOutboxRoutes = new Hono<AppEnv>()
  .use('/outbox', onlyInSandbox, localOrStaff)
  .use('/outbox/*', onlyInSandbox, localOrStaff)
  .get('/outbox', validQuery(OutboxQuerySchema), async (c) => {
    const { to, limit } = c.req.valid('query');
    const rows = await outbox(c.var.deps.db, to, limit);
    return ok(c, {
      messages: rows.map((m) => ({ id: m.id, event: m.event, channel: m.channel, to: m.to, subject: m.subject, text: m.text, status: m.status, provider: m.provider, created_at: m.createdAt.toISOString(), sent_at: m.sentAt?.toISOString() ?? null })),
    });
  })
  .get('/outbox/page', validQuery(OutboxQuerySchema), async (c) => {
    const { to, limit } = c.req.valid('query');
    const rows = await outbox(c.var.deps.db, to, limit);
    return c.html(
      sandboxPage({
        title: '발신함 (샌드박스)',
        notice: '테스트 환경 · 실제로 발송되지 않은 메시지도 여기에 보입니다',
        heading: '알림 발신함',
        body: html`<p>서비스가 고객과 운영팀에 보낸 이메일과 카카오 알림톡입니다. 발송 업체가 설정되지 않은 채널의 메시지는 실제로 나가지 않고 여기에만 남습니다.</p>
<form method="get" action="page"><label for="to">받는 사람</label><input id="to" name="to" value="${to ?? ''}" placeholder="이메일 또는 휴대폰 번호">
<div class="actions"><button class="ok" type="submit">찾기</button></div></form>
${rows.length ? '' : html`<p>아직 메시지가 없습니다.</p>`}
${rows.map(
  (m) => html`<article class="console-row" data-testid="outbox-message"><p><strong>${m.subject}</strong><br>${CHANNEL_LABEL[m.channel] ?? m.channel} · ${m.to} · ${STATUS_LABEL[m.status] ?? m.status} · ${formatKoreaDateTime(m.createdAt)}</p>
<details><summary>내용 보기</summary><pre style="white-space:pre-wrap;font:inherit;font-size:.875rem">${m.text}</pre></details></article>`,
)}`,
      }),
    );
  });

function outbox(db: Db, to: string | undefined, limit: number) {
  return db
    .select()
    .from(notificationMessages)
    .where(to ? eq(notificationMessages.to, to) : undefined)
    .orderBy(desc(notificationMessages.createdAt), desc(notificationMessages.id))
    .limit(limit);
}
