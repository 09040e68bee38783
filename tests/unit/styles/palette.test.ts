import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PALETTE } from '../../../src/styles/palette';

const css = readFileSync('src/styles/global.css', 'utf8');
const theme = css.match(/@theme\s*\{([\s\S]*?)\n\}/)?.[1] ?? '';
const tokens = Object.fromEntries([...theme.matchAll(/--color-([a-z-]+):\s*(#[0-9a-f]{6}(?:[0-9a-f]{2})?);/g)].map((m) => [m[1].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), m[2]]));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? files(p) : /\.(astro|tsx?|css)$/.test(p) ? [p] : [];
  });
}

describe('design tokens', () => {
  it('global.css @theme declares the colours', () => {
    expect(Object.keys(tokens)).toContain('ink');
    expect(Object.keys(tokens).length).toBeGreaterThan(10);
  });

  it('PALETTE equals the @theme colours, with white and mailText as the only extras', () => {
    for (const [name, hex] of Object.entries(tokens)) expect(PALETTE[name as keyof typeof PALETTE], name).toBe(hex);
    expect(Object.keys(PALETTE).filter((k) => !(k in tokens))).toEqual(['white', 'mailText']);
  });

  it('the site has no raw hex or rgb() colours outside the tokens', () => {
    const site = ['src/components', 'src/islands', 'src/layouts', 'src/pages', 'src/page-scripts', 'src/styles'].flatMap(files);
    const offenders = site
      .filter((f) => !f.endsWith('palette.ts'))
      .flatMap((f) => {
        // global.css may spell colours in its @theme block only.
        const text = f.endsWith('global.css') ? readFileSync(f, 'utf8').replace(theme, '') : readFileSync(f, 'utf8');
        return [...text.matchAll(/#[0-9a-fA-F]{3,8}\b(?![-\w])|rgba?\(/g)].map((m) => `${f}: ${m[0]}`);
      });
    expect(offenders).toEqual([]);
  });
});
