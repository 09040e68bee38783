import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A customer never reads a setting's name: a Korean sentence in the site's islands, components or
 * pages that names an environment variable (as "(PUBLIC_KAKAO_REST_API_KEY)" on /login once did)
 * fails here. Comments are not read by customers and are left out.
 */
const ROOTS = ['src/islands', 'src/components', 'src/pages'].map((dir) => path.join(process.cwd(), dir));
const SENTENCE_NAMING_A_SETTING = /[\uAC00-\uD7A3][^'"`{\n]*\b[A-Z][A-Z0-9]*_[A-Z0-9_]{3,}\b/;
const COMMENT = /^\s*(\/\/|\*|\/\*|\{\/\*)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(tsx|astro)$/.test(name) ? [full] : [];
  });
}

describe('customer-facing text', () => {
  it('never names a setting', () => {
    const found = ROOTS.flatMap(sources).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (!COMMENT.test(line) && SENTENCE_NAMING_A_SETTING.test(line) ? [`${path.relative(process.cwd(), file)}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('the pattern catches the sentence that was there', () => {
    expect(SENTENCE_NAMING_A_SETTING.test('<p>카카오 로그인이 설정되지 않았습니다. (PUBLIC_KAKAO_REST_API_KEY)</p>')).toBe(true);
    expect(SENTENCE_NAMING_A_SETTING.test('<p>카카오 로그인은 지금 이용할 수 없습니다.</p>')).toBe(false);
  });
});
