import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { PALETTE } from '../../styles/palette';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The storefront's colours (src/styles/palette.ts) and Pretendard, so a sandbox page reads as part of the site. */
const STYLE = `
:root{--ink:${PALETTE.ink};--paper:${PALETTE.paper};--gold:${PALETTE.gold};--line:${PALETTE.line};--muted:${PALETTE.muted};--warn:${PALETTE.danger}}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font-family:Pretendard,system-ui,-apple-system,'Apple SD Gothic Neo','Noto Sans KR',sans-serif;word-break:keep-all;overflow-wrap:break-word;-webkit-font-smoothing:antialiased}
.bar{display:flex;align-items:center;justify-content:space-between;gap:1rem;height:56px;padding:0 1rem;background:var(--ink);color:var(--paper)}
.logo{font-family:serif;font-size:1.25rem;font-weight:600;letter-spacing:.35em}
.test{border:1px solid var(--gold);color:var(--gold);padding:.2rem .6rem;font-size:.75rem;font-weight:700}
main{max-width:30rem;margin:2.5rem auto;padding:0 1rem}
.card{background:${PALETTE.white};border:1px solid var(--line);padding:1.5rem}
.badge{display:block;margin:0 0 1.25rem;padding:.6rem .8rem;background:${PALETTE.dangerSoft};border-left:3px solid var(--warn);color:var(--warn);font-weight:700;font-size:.875rem}
h1{margin:0;font-size:1.375rem;line-height:1.35;text-wrap:balance}
p{line-height:1.7;color:rgb(11 11 12/.8);font-size:.9375rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1.25rem;margin:1.25rem 0;padding:1rem 0;border-block:1px solid var(--line);font-size:.9375rem}
dt{color:var(--muted)}dd{margin:0;font-weight:600}
label{display:block;margin:1rem 0 .35rem;font-size:.875rem;font-weight:600}
input{width:100%;font:inherit;font-size:1rem;padding:.75rem 1rem;border:1px solid var(--line);background:${PALETTE.white};outline:none}
input:focus{border-color:var(--gold)}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1.5rem}
button{font:inherit;font-size:.9375rem;font-weight:600;padding:.85rem 1.25rem;border:1px solid var(--ink);background:transparent;color:var(--ink);cursor:pointer}
button.ok{flex:1 1 12rem;background:var(--ink);color:var(--paper)}
button.fail{flex:1 1 10rem}
button.cancel{flex-basis:100%;border:0;padding:.75rem 0 0;color:var(--muted);text-decoration:underline;text-underline-offset:4px;font-weight:500}
:focus-visible{outline:2px solid var(--gold);outline-offset:2px}
.error{color:var(--warn);font-weight:600}
fieldset.cards{border:0;margin:1rem 0 0;padding:0;display:grid;gap:.5rem}
legend{font-size:.875rem;font-weight:600;margin-bottom:.5rem}
.card-option{display:flex;gap:.75rem;align-items:flex-start;margin:0;padding:.75rem;border:1px solid var(--line);cursor:pointer;min-height:44px}
.card-option input{width:auto;margin-top:.25rem}
.card-option small{display:block;color:var(--muted);font-weight:400}
.console-row{border-top:1px solid var(--line);padding:.75rem 0}
@media print{.bar,.badge,.print-hide{display:none}body{background:${PALETTE.white}}.card{border:0}}
`;

/**
 * The shell of a payment-provider sandbox page: the site's dark bar with a TEST label, a
 * red 테스트 환경 notice and a card holding the page's own content.
 */
export function sandboxPage(p: { title: string; notice: string; heading: string; body: Html; script?: string }) {
  return html`<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${p.title}</title>
<link rel="stylesheet" href="/fonts/pretendard/core.css"><link rel="stylesheet" href="/fonts/pretendard/pretendard.css">
<style>${raw(STYLE)}</style>${p.script ? html`<script src="${p.script}" defer></script>` : ''}</head>
<body><header class="bar"><span class="logo">LUXE</span><span class="test">TEST · 테스트 페이지</span></header>
<main><div class="card"><p class="badge" role="note">${p.notice}</p>
<h1>${p.heading}</h1>
${p.body}
</div></main></body></html>`;
}
