import island from 'astro/runtime/server/astro-island.prebuilt.js';
import { ISLAND_STYLES } from 'astro/runtime/server/astro-island-styles.js';
import idle from 'astro/runtime/client/idle.prebuilt.js';
import load from 'astro/runtime/client/load.prebuilt.js';
import media from 'astro/runtime/client/media.prebuilt.js';
import only from 'astro/runtime/client/only.prebuilt.js';
import visible from 'astro/runtime/client/visible.prebuilt.js';

/**
 * What Astro writes once per page just before its first island (and each hydration directive's
 * first island): the island element's style and runtime, and the directives' scripts. Exactly these
 * texts (the same the Content-Security-Policy allows by hash: src/api/security-headers.ts).
 */
const PRESCRIPTS = [`<style>${ISLAND_STYLES}</style>`, ...[island, load, idle, visible, media, only].map((text) => `<script>${text}</script>`)];

/**
 * The page with Astro's island prescripts moved from the body to the end of <head>, in their order.
 * Chromium may paint at an inline script in the body, so the first frame showed what comes before
 * the first island and the island (often the largest text) a frame later: Lighthouse's LCP then
 * waited on every script that finished in between (issue 37). In the head they run before any island
 * is parsed, as they do now; the island element waits for its children either way (`await-children`).
 */
export function prescriptsInHead(html: string): string {
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) return html;
  let body = html.slice(headEnd);
  const found = PRESCRIPTS.map((text) => ({ text, at: body.indexOf(text) })).filter((p) => p.at >= 0).sort((a, b) => a.at - b.at);
  // Each occurs once in a page's body; removed from the last so the earlier offsets stay right.
  for (const { text, at } of [...found].reverse()) body = body.slice(0, at) + body.slice(at + text.length);
  return html.slice(0, headEnd) + found.map((p) => p.text).join('') + body;
}
