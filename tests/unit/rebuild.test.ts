import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { needsBuild } from '../../src/server/services/rebuild';

describe('needsBuild', () => {
  const dist = path.join(mkdtempSync(path.join(tmpdir(), 'dist-')), 'dist');
  it('builds when dist is missing', () => {
    expect(needsBuild(dist, 1, 100)).toBe(true);
  });
  it('reuses a build of the same catalogue version and sources', () => {
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, '.build.json'), JSON.stringify({ catalogueVersion: 3, sourceTime: 100, builtAt: 'x' }));
    expect(needsBuild(dist, 3, 100)).toBe(false);
  });
  it('rebuilds when the catalogue or the sources are newer', () => {
    expect(needsBuild(dist, 4, 100)).toBe(true);
    expect(needsBuild(dist, 3, 101)).toBe(true);
  });
});
