import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The words a customer reads (issue 49). The chauffeured service is 의전 everywhere: the header's
 * mode switch names it so (spec 3 §1), and "버틀러" and "의전" on one page read as two services. The
 * only 버틀러 left are the spec's own exact texts (spec 3 §2.10: the two lists' empty texts), which
 * are requirements word for word. Comments are not read by customers and are left out.
 *
 * Every source that can put text before a customer or staff member is read: pages, islands,
 * components, layouts, message templates, the API's Korean errors, the domain's labels, the seed.
 */
const ROOTS = ['src'].map((dir) => path.join(process.cwd(), dir));

/** The spec's exact texts containing 버틀러 (3-butler-routes-shell.md §2.10). */
const SPEC_BUTLER_TEXTS = ['아직 버틀러 요청이 없습니다', '아직 버틀러 구독이 없습니다'] as const;

/** Files whose 버틀러 is never shown: the chat parser's words for what a customer may type. */
const NOT_SHOWN = new Set(['src/api/chat/places.ts']);

/**
 * 출고일 is the car's factory release day, a catalogue field staff edit in the console; the day a
 * customer chose (구독 시작일, 탁송 일시) is never called so.
 */
const RELEASE_DAY_FIELD = new Set(['src/islands/admin/sections.tsx', 'src/domain/schemas/admin.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(tsx?|astro|mjs|json|md|html)$/.test(name) ? [full] : [];
  });
}

/** The text of a source without its comments (block, line, JSX and HTML ones). */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Where `word` stands in customer-facing text of `files`, apart from the `allowed` exact texts. */
function occurrences(word: RegExp, allowed: readonly string[], skip: Set<string>): string[] {
  return ROOTS.flatMap(sources).flatMap((file) => {
    const rel = path.relative(process.cwd(), file);
    if (skip.has(rel)) return [];
    return withoutComments(readFileSync(file, 'utf8'))
      .split('\n')
      .flatMap((line, i) => {
        const rest = allowed.reduce((l, a) => l.replaceAll(a, ''), line);
        return word.test(rest) ? [`${rel}:${i + 1}: ${line.trim().slice(0, 120)}`] : [];
      });
  });
}

describe('the words customers read (issue 49)', () => {
  it('버틀러 only in the spec’s exact texts; the service is 의전 everywhere else', () => {
    expect(occurrences(/버틀러/, SPEC_BUTLER_TEXTS, NOT_SHOWN)).toEqual([]);
  });

  it('the spec’s exact texts are still there, word for word', () => {
    const all = ROOTS.flatMap(sources).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const t of SPEC_BUTLER_TEXTS) expect(all).toContain(t);
  });

  it('출고일 is only the car’s release-day field, never the customer’s chosen day', () => {
    expect(occurrences(/출고일/, [], RELEASE_DAY_FIELD)).toEqual([]);
  });

  it('the check reads what a customer reads, not comments', () => {
    expect(withoutComments("const a = '버틀러 예약'; // 버틀러")).toContain('버틀러 예약');
    expect(withoutComments('/** 버틀러 */ const a = 1;')).not.toContain('버틀러');
    expect(withoutComments("fetch('https://x.kr/버틀러')")).toContain('버틀러');
    expect('아직 버틀러 요청이 없습니다 · 버틀러 예약'.replaceAll(SPEC_BUTLER_TEXTS[0], '')).toMatch(/버틀러/);
  });
});
