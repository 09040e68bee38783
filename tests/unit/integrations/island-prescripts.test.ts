import { describe, expect, it } from 'vitest';
import island from 'astro/runtime/server/astro-island.prebuilt.js';
import load from 'astro/runtime/client/load.prebuilt.js';
import visible from 'astro/runtime/client/visible.prebuilt.js';
import { prescriptsInHead } from '../../../src/integrations/island-prescripts';

const style = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';
const page = (head: string, body: string) => `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;

describe('island prescripts in the head (issue 37: no inline script in the body to paint at)', () => {
  it('moves the style, the directives and the runtime to the end of the head, in their order', () => {
    const body = `<h1>제목</h1>${style}<script>${load}</script><script>${island}</script><astro-island uid="a">x</astro-island><p>중간</p><script>${visible}</script><astro-island uid="b">y</astro-island>`;
    const out = prescriptsInHead(page('<link rel="stylesheet" href="/a.css">', body));
    expect(out).toBe(page(`<link rel="stylesheet" href="/a.css">${style}<script>${load}</script><script>${island}</script><script>${visible}</script>`, '<h1>제목</h1><astro-island uid="a">x</astro-island><p>중간</p><astro-island uid="b">y</astro-island>'));
  });

  it('leaves a page without islands, any other script and a page without a head as they are', () => {
    const plain = page('<script>var a=1</script>', '<p>본문</p><script type="module" src="/x.js"></script><script>var b=2</script>');
    expect(prescriptsInHead(plain)).toBe(plain);
    expect(prescriptsInHead('<p>조각</p>')).toBe('<p>조각</p>');
  });

  it('leaves a look-alike script (not the exact runtime text) in the body', () => {
    const body = `<script>${load};alert(1)</script><astro-island></astro-island>`;
    expect(prescriptsInHead(page('', body))).toBe(page('', body));
  });
});
