import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shellFor } from '../../src/server/rewrites';
import { nginxSnippet, redirectsFile } from '../../scripts/write-rewrites';

describe('shell rewrites', () => {
  it('sends per-user pages with an id to their one shell and anything else home', () => {
    expect(shellFor('/car/12345')).toBe('/car/fallback/');
    expect(shellFor('/subscribe/request/7')).toBe('/subscribe/request/detail/');
    expect(shellFor('/butler/request/7/')).toBe('/butler/request/detail/');
    expect(shellFor('/butler/subscribe/3')).toBe('/butler/subscribe/detail/');
    expect(shellFor('/porsche-911')).toBe('/');
    expect(shellFor('/a/b/c')).toBe('/');
  });
  it('ships the same table to static hosts (regenerate with scripts/write-rewrites.ts)', () => {
    expect(readFileSync('public/_redirects', 'utf8')).toBe(redirectsFile());
    expect(readFileSync('docs/nginx.conf', 'utf8')).toBe(nginxSnippet());
  });
});
