import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** src/domain is shared by the API and the islands: it must stay free of runtimes and I/O. */
const FORBIDDEN = [/from ['"]astro/, /from ['"]react/, /from ['"]hono/, /from ['"]drizzle/, /from ['"]node:/, /process\.env/, /\bfetch\(/, /\bdocument\./, /\bwindow\./, /localStorage/];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('src/domain purity', () => {
  for (const file of files('src/domain')) {
    it(`${file} imports no runtime, DOM, database or environment`, () => {
      const text = readFileSync(file, 'utf8');
      for (const re of FORBIDDEN) expect(text, `${file} matches ${re}`).not.toMatch(re);
    });
  }
});
