/**
 * The site's brand face, Pretendard, as two kinds of files (docs/decisions/fonts.md; made by
 * scripts/make-fonts.ts): one preloaded core file with every character of the first views, and
 * Pretendard's own unicode-range subsets for every other character, fetched only when a page shows one.
 */
export const CORE_FONT = {
  href: '/fonts/pretendard/pretendard-core.woff2',
  /** Its @font-face alone, for pages without the site stylesheet (the sandbox's, notification links). */
  css: '/fonts/pretendard/core.css',
  /** The weights the site sets: font-normal 400 … font-bold 700 (of the variable font's 45–920). */
  weights: [400, 700] as const,
  /** The most bytes the core file may have (the "about 60 KB of font on a first view"; 61 KB since the footer's legally required seller details, 전자상거래법 제10조; 62 KB since the 운전자격 확인 and butler cancellation rules the FAQ states; 63 KB since the waiting rule and the driver-only model on /fleet, the form and the FAQ). */
  budgetBytes: 63 * 1024,
  /**
   * The first 12 hex digits of the file's SHA-256 (tests/unit/styles/fonts.test.ts keeps it true;
   * scripts/make-fonts.ts prints it). A browser that fetched this file after a page's load event
   * remembers it under `storageKey`; from then on its pages draw with Pretendard (before paint:
   * src/page-scripts/before-paint.ts), and a new file is fetched once again before it is used.
   */
  version: '6f6078336ae8',
  storageKey: 'luxeBrandFont',
};

/** The class the before-paint script (BRAND_FONT_SCRIPT) puts on <html> when Pretendard may draw (src/styles/global.css). */
export const BRAND_FONT_CLASS = 'brand-font';

/**
 * Pretendard's unicode-range subsets for every character outside the core. The storefront adds it
 * after the load event (src/components/header-client.ts): no first view needs it.
 */
export const SUBSETS_CSS = '/fonts/pretendard/pretendard.css';

/** The pages whose first view the core file covers (paths of the built site; '' is home). */
export const FIRST_VIEW_PAGES = ['', 'garage', 'car/1', 'butler', 'fleet', 'chat', 'butler/request', 'faq', 'about', 'contact', 'login', 'signup', 'my', 'inquire', 'my/payments'];

/**
 * Words the account pages of FIRST_VIEW_PAGES show once their data has loaded (islands: /my, the
 * order page, /my/payments), not in their HTML; measured with a test account (issue 37).
 */
export const RENDERED_LATER = '로그아웃 아직 현재 받습니다 반납 전자금융거래 최종';

/**
 * Characters always in the core: printable ASCII and the symbols UI text and prices use. Marked
 * pure so that the pages, which import this module for SUBSETS_CSS, do not carry it.
 */
const ALWAYS = /* @__PURE__ */ Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i);
const SYMBOLS = [
  0xa0, 0xa9, 0xb7, 0xd7, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2026, 0x203b, 0x20a9, 0x2190, 0x2192, 0x25be,
];

/**
 * The text a page shows: its HTML without scripts, styles, tags and entities' markup. Closed <details>
 * count (Chromium fetches fonts for their text once a face covering it is declared).
 */
export function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, ' ');
}

/** The code points of the core file for this text: ALWAYS and every printable character of the text, sorted. */
export function coreGlyphs(text: string): number[] {
  const set = new Set([...ALWAYS, ...SYMBOLS]);
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x7e && !/\s|\p{C}/u.test(ch)) set.add(cp);
  }
  return [...set].sort((a, b) => a - b);
}

/** A CSS unicode-range ("U+20-7e, U+b7") as the code points it covers. */
export function parseUnicodeRange(range: string): number[] {
  const out: number[] = [];
  for (const part of range.split(',')) {
    const m = /U\+([0-9a-f]+)(?:-([0-9a-f]+))?/i.exec(part.trim());
    if (!m) continue;
    const from = parseInt(m[1], 16);
    const to = m[2] ? parseInt(m[2], 16) : from;
    for (let cp = from; cp <= to; cp++) out.push(cp);
  }
  return out;
}

/** Sorted code points as a CSS unicode-range, consecutive ones as one span. */
export function formatUnicodeRange(codePoints: number[]): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const from = sorted[i];
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++;
    parts.push(from === sorted[i] ? `U+${from.toString(16)}` : `U+${from.toString(16)}-${sorted[i].toString(16)}`);
  }
  return parts.join(', ');
}
