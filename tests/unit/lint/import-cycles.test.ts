import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle in src (what `madge --circular` checks, held here because madge's peers refuse
 * TypeScript 6). Every relative import counts, `import type` and `import()` too: a cycle of types
 * still ties two modules together for the reader.
 */
const SRC = path.join(process.cwd(), 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

export function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = info.importedFiles.map((f) => resolve(file, f.fileName)).filter((t): t is string => t !== null);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Each cycle once, as the files on it from its first-reached module. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('imports in src', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('never lead back to the module that made them', () => {
    const graph = importGraph(sources(SRC));
    expect(graph.size).toBeGreaterThan(300);
    const named = cycles(graph).map((c) => c.map((f) => path.relative(SRC, f)).join(' > '));
    expect(named).toEqual([]);
  });
});
