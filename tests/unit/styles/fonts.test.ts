import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRAND_FONT_CLASS, CORE_FONT, coreGlyphs, formatUnicodeRange, parseUnicodeRange, visibleText } from '../../../src/domain/fonts';

/** The generated font files (scripts/make-fonts.ts, docs/decisions/fonts.md) keep their shape. */
const coreCss = readFileSync('src/styles/fonts.css', 'utf8');
const subsetsCss = readFileSync('public/fonts/pretendard/pretendard.css', 'utf8');
const coreRange = parseUnicodeRange(/unicode-range: ([^;]+);/.exec(coreCss)![1]);
const faces = [...subsetsCss.matchAll(/font-display: (\w+);[^}]*src: url\(\.\/([^)]+)\)[^;]*; unicode-range: ([^;]+);/g)].map((m) => ({ display: m[1], file: m[2], range: parseUnicodeRange(m[3]) }));
const subsets = faces;

describe('Pretendard files', () => {
  it('the core file is within the first-view budget and the site stylesheet declares it', () => {
    expect(statSync(`public${CORE_FONT.href}`).size).toBeLessThanOrEqual(CORE_FONT.budgetBytes);
    expect(coreCss).toContain(`src: url(${CORE_FONT.href}) format('woff2')`);
    expect(coreCss).toContain(`font-weight: ${CORE_FONT.weights.join(' ')}`);
    expect(readFileSync('src/styles/global.css', 'utf8')).toContain('@import "./fonts.css";');
  });

  it('the core covers printable ASCII and the won sign', () => {
    for (let cp = 0x20; cp < 0x7f; cp++) expect(coreRange).toContain(cp);
    expect(coreRange).toContain(0x20a9);
  });

  it('every other character has exactly one subset, and no subset repeats a core character', () => {
    expect(subsets.length).toBeGreaterThan(80);
    const core = new Set(coreRange);
    const seen = new Set<number>();
    for (const { file, range } of subsets) {
      expect(statSync(`public/fonts/pretendard/${file}`).isFile()).toBe(true);
      for (const cp of range) {
        expect(core.has(cp), `U+${cp.toString(16)} in ${file} and the core`).toBe(false);
        expect(seen.has(cp), `U+${cp.toString(16)} twice`).toBe(false);
        seen.add(cp);
      }
    }
    // Every Hangul syllable is drawn by Pretendard, from the core or a subset.
    for (let cp = 0xac00; cp <= 0xd7a3; cp++) expect(core.has(cp) || seen.has(cp), `U+${cp.toString(16)}`).toBe(true);
  });

  it('every face has the core\'s descriptors: a browser joins unicode-ranges of faces with equal descriptors only', () => {
    const weights = [...subsetsCss.matchAll(/font-weight: ([^;]+);/g)].map((m) => m[1]);
    expect(weights.length).toBe(subsets.length);
    expect(new Set(weights)).toEqual(new Set([CORE_FONT.weights.join(' ')]));
    expect(new Set([...subsetsCss.matchAll(/font-style: ([^;]+);/g)].map((m) => m[1]))).toEqual(new Set(['normal']));
  });

  it('subsets never swap in late (no layout shift); the core, drawn only once cached and preloaded from the cache, may', () => {
    expect(subsets.every((f) => f.display === 'optional')).toBe(true);
    expect(coreCss).toContain('font-display: swap');
  });

  it('the version browsers remember the core file by is the file\'s: a new file is fetched before it is drawn', () => {
    expect(createHash('sha256').update(readFileSync(`public${CORE_FONT.href}`)).digest('hex').slice(0, 12)).toBe(CORE_FONT.version);
  });

  it('the sans stack names Pretendard only under the class the before-paint script sets', () => {
    const global = readFileSync('src/styles/global.css', 'utf8');
    expect(/--font-sans: ([^;]+);/.exec(global)![1]).not.toContain('Pretendard');
    expect(global).toMatch(new RegExp(`html\\.${BRAND_FONT_CLASS} \\{ --font-sans: Pretendard, `));
  });

  it('the core face alone, for pages without the site stylesheet, is the site stylesheet\'s', () => {
    const alone = readFileSync(`public${CORE_FONT.css}`, 'utf8');
    expect(alone).toContain(`src: url(./${CORE_FONT.href.split('/').pop()}) format('woff2')`);
    expect(parseUnicodeRange(/unicode-range: ([^;]+);/.exec(alone)![1])).toEqual(coreRange);
    // Not in the subsets file: declared again after the load event it would blink the text (a layout shift).
    expect(subsetsCss).not.toContain('pretendard-core.woff2');
  });
});

describe('font helpers', () => {
  it('unicode ranges round-trip, consecutive code points as one span', () => {
    expect(formatUnicodeRange([0x41, 0x20, 0x21, 0x22, 0xac00])).toBe('U+20-22, U+41, U+ac00');
    expect(parseUnicodeRange('U+20-22, U+41, U+AC00')).toEqual([0x20, 0x21, 0x22, 0x41, 0xac00]);
  });

  it('visible text leaves out scripts, styles and tags, not the text of closed details', () => {
    const html = '<p>가</p><script>나</script><style>.다{}</style><details><summary>라</summary><p>마</p></details>';
    const text = visibleText(html);
    for (const ch of '가라마') expect(text).toContain(ch);
    for (const ch of '나다') expect(text).not.toContain(ch);
    expect(text).not.toContain('<');
  });

  it('core glyphs: ASCII, the fixed symbols and the text, without spaces or controls', () => {
    const glyphs = coreGlyphs('구독\n\u200b₩');
    expect(glyphs).toContain('구'.codePointAt(0));
    expect(glyphs).toContain('독'.codePointAt(0));
    expect(glyphs).not.toContain(0x0a);
    expect(glyphs).not.toContain(0x200b);
    expect(glyphs).toEqual([...glyphs].sort((a, b) => a - b));
  });
});
