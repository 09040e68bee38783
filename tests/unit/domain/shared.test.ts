import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * src/domain holds what the site and the server share. Code only the server uses belongs in
 * src/api; this follows the site's imports (pages, components, layouts, islands, scripts,
 * client, stores, lib) into src/domain and expects to reach every domain file. The request
 * schemas (src/domain/schemas) are the API's published contract and stay beside the types.
 */
const SITE = ['src/pages', 'src/components', 'src/layouts', 'src/islands', 'src/page-scripts', 'src/client', 'src/stores', 'src/lib', 'src/config', 'src/content.config.ts'];
const SOURCE = /\.(ts|tsx|astro|mjs)$/;

function files(entry: string): string[] {
  if (!existsSync(entry)) return [];
  if (!statSync(entry).isDirectory()) return SOURCE.test(entry) ? [entry] : [];
  return readdirSync(entry).flatMap((e) => files(path.join(entry, e)));
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return path.relative(process.cwd(), candidate);
  }
  return null;
}

function reachable(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(file, spec);
      if (target && !seen.has(target)) queue.push(target);
    }
  }
  return seen;
}

describe('src/domain is shared code', () => {
  it('every domain file is used by the site (server-only code lives in src/api)', () => {
    const used = reachable(SITE.flatMap(files));
    const unused = files('src/domain').filter((f) => !f.startsWith('src/domain/schemas/') && !used.has(f));
    expect(unused).toEqual([]);
  });
});
