import { html } from 'hono/html';
import { PALETTE } from '../../../styles/palette';
import type { Filled } from '../template';

/** What the layout adds around a message: the footer's contact number and, for marketing, the unsubscribe link. */
export interface LayoutOptions {
  contactPhone: string;
  unsubscribeUrl?: string;
}

const FOOTER = 'LUXE 구독 · 프리미엄 차량 구독과 의전 서비스';

/** The plain-text email: title, lines, rows, the link, the footer. */
export function emailText(m: Filled, o: LayoutOptions): string {
  return [
    m.title,
    '',
    ...m.lines,
    ...(m.details.length ? ['', ...m.details.map(([l, v]) => `${l}: ${v}`)] : []),
    '',
    `${m.action.label}: ${m.action.url}`,
    '',
    '—',
    FOOTER,
    `고객센터 ${o.contactPhone}`,
    ...(o.unsubscribeUrl ? [`광고성 정보 수신을 원하지 않으시면 아래 링크에서 수신 거부할 수 있습니다.`, o.unsubscribeUrl] : []),
  ].join('\n');
}

/**
 * The HTML email: one centred card in the site's colours (ink, paper, gold), inline styles only
 * (mail clients drop style sheets), so the colours are literal hex from PALETTE; every value escaped.
 */
export async function emailHtml(m: Filled, o: LayoutOptions): Promise<string> {
  const page = html`<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${m.subject}</title></head>
<body style="margin:0;padding:0;background:${PALETTE.paper};color:${PALETTE.ink};font-family:Pretendard,'Apple SD Gothic Neo','Malgun Gothic','Noto Sans KR',sans-serif;word-break:keep-all">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${PALETTE.paper}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${PALETTE.white};border:1px solid ${PALETTE.line}">
<tr><td style="background:${PALETTE.ink};color:${PALETTE.paper};padding:16px 24px;font-family:Georgia,serif;font-size:20px;letter-spacing:.35em">LUXE</td></tr>
<tr><td style="padding:28px 24px 8px"><h1 style="margin:0 0 16px;font-size:20px;line-height:1.4">${m.title}</h1>
${m.lines.map((l) => html`<p style="margin:0 0 12px;font-size:15px;line-height:1.7;color:${PALETTE.mailText}">${l}</p>`)}
</td></tr>
${m.details.length
  ? html`<tr><td style="padding:4px 24px 8px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-top:1px solid ${PALETTE.line};border-bottom:1px solid ${PALETTE.line};font-size:14px">
${m.details.map(([l, v]) => html`<tr><td style="padding:8px 12px 8px 0;color:${PALETTE.muted};white-space:nowrap;vertical-align:top">${l}</td><td style="padding:8px 0;font-weight:600">${v}</td></tr>`)}
</table></td></tr>`
  : ''}
<tr><td style="padding:20px 24px 28px"><a href="${m.action.url}" style="display:inline-block;background:${PALETTE.ink};color:${PALETTE.paper};text-decoration:none;padding:12px 20px;font-weight:600;font-size:15px">${m.action.label}</a></td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid ${PALETTE.line};font-size:12px;line-height:1.6;color:${PALETTE.muted}">${FOOTER}<br>고객센터 ${o.contactPhone}
${o.unsubscribeUrl ? html`<br>광고성 정보 수신을 원하지 않으시면 <a href="${o.unsubscribeUrl}" style="color:${PALETTE.muted}">수신 거부</a>를 눌러주세요.` : ''}</td></tr>
</table></td></tr></table></body></html>`;
  return (await page).toString();
}
