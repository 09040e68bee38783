import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanStaleBuilds, isInside, putInPlace, stagingDirs, swapIn, warmUpDir } from '../../../src/host/publish/dist-folders';
import { runPublishCommand } from '../../../src/host/publish/publish-command';
import { buildSettings, needsBuild, sourceTime } from '../../../src/host/publish/stamp';
import { buildHeapMb } from '../../../src/host/publish/site-builder';

describe('needsBuild', () => {
  const dist = path.join(mkdtempSync(path.join(tmpdir(), 'dist-')), 'dist');
  const inputs = { catalogueVersion: 3, sources: 100, database: 'db-a', settings: 'digest-a' };
  it('builds when dist is missing', () => {
    expect(needsBuild(dist, inputs)).toBe(true);
  });
  it('reuses a build of the same catalogue version, sources, database and settings', () => {
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, '.build.json'), JSON.stringify({ catalogueVersion: 3, sourceTime: 100, builtAt: 'x', database: 'db-a', settings: 'digest-a' }));
    expect(needsBuild(dist, inputs)).toBe(false);
  });
  it('rebuilds when the catalogue or the sources are newer, or the database or the settings differ', () => {
    expect(needsBuild(dist, { ...inputs, catalogueVersion: 4 })).toBe(true);
    expect(needsBuild(dist, { ...inputs, sources: 101 })).toBe(true);
    expect(needsBuild(dist, { ...inputs, database: 'db-b' })).toBe(true);
    expect(needsBuild(dist, { ...inputs, settings: 'digest-b' })).toBe(true);
  });
});

describe('build settings', () => {
  it('digest SITE_URL, the sandbox switch and every PUBLIC_* variable, and nothing else', () => {
    const a = buildSettings({ PUBLIC_CONTACT_PHONE: '02-1', SECRET: 'x' }, { SITE_URL: 'https://a.kr', PUBLIC_SANDBOX: 'on' });
    expect(a.env).toEqual({ PUBLIC_CONTACT_PHONE: '02-1', PUBLIC_SANDBOX: 'on', SITE_URL: 'https://a.kr' });
    expect(buildSettings({ PUBLIC_CONTACT_PHONE: '02-1', SECRET: 'y' }, { SITE_URL: 'https://a.kr', PUBLIC_SANDBOX: 'on' }).digest).toBe(a.digest);
    expect(buildSettings({ PUBLIC_CONTACT_PHONE: '02-2' }, { SITE_URL: 'https://a.kr', PUBLIC_SANDBOX: 'on' }).digest).not.toBe(a.digest);
    expect(buildSettings({ PUBLIC_CONTACT_PHONE: '02-1' }, { SITE_URL: 'https://b.kr', PUBLIC_SANDBOX: 'on' }).digest).not.toBe(a.digest);
    expect(buildSettings({ PUBLIC_CONTACT_PHONE: '02-1' }, { SITE_URL: 'https://a.kr', PUBLIC_SANDBOX: 'off' }).digest).not.toBe(a.digest);
  });
});

describe('putting an edit in place', () => {
  it('renames each file into the served folder (new folders made), removes what went, and leaves the rest', async () => {
    const from = mkdtempSync(path.join(tmpdir(), 'changes-'));
    const served = mkdtempSync(path.join(tmpdir(), 'served-'));
    for (const [rel, body] of [['car/1/index.html', 'old 1'], ['car/2/index.html', 'old 2'], ['car/2/index.html.br', 'br 2'], ['index.html', 'old home'], ['.build.json', '{"old":true}']]) {
      mkdirSync(path.dirname(path.join(served, rel)), { recursive: true });
      writeFileSync(path.join(served, rel), body);
    }
    for (const [rel, body] of [['car/1/index.html', 'new 1'], ['car/9/index.html', 'new 9'], ['index.html', 'new home'], ['.build.json', '{"new":true}']]) {
      mkdirSync(path.dirname(path.join(from, rel)), { recursive: true });
      writeFileSync(path.join(from, rel), body);
    }
    const untouched = lstatSync(path.join(served, 'car/2/index.html')).ino;
    await putInPlace(from, served, ['car/1/index.html', 'car/9/index.html', 'index.html', '.build.json'], ['car/2/index.html', 'car/2/index.html.br', 'car/2/index.html.gz']);
    const read = (rel: string) => readFileSync(path.join(served, rel), 'utf8');
    expect([read('car/1/index.html'), read('car/9/index.html'), read('index.html'), read('.build.json')]).toEqual(['new 1', 'new 9', 'new home', '{"new":true}']);
    expect(existsSync(path.join(served, 'car/2'))).toBe(false);
    expect(untouched).toBeGreaterThan(0);
    expect(readdirSync(from, { recursive: true }).filter((f) => String(f).endsWith('.html'))).toEqual([]);
  });
});

describe('the swap of a new build', () => {
  it('replaces DIST_DIR in one rename of a link: a reader polling it never sees it missing or half', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'swap-'));
    const dist = path.join(dir, 'dist');
    // A plain DIST_DIR of an older install is moved aside once, by the first swap.
    mkdirSync(dist);
    writeFileSync(path.join(dist, 'index.html'), 'v0');
    mkdirSync(path.join(dir, 'dist.next-1-0'));
    writeFileSync(path.join(dir, 'dist.next-1-0', 'index.html'), 'v0');
    await swapIn(path.join(dir, 'dist.next-1-0'), dist, '1-0');
    expect(lstatSync(dist).isSymbolicLink()).toBe(true);
    let misses = 0;
    let reads = 0;
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        try {
          const text = readFileSync(path.join(dist, 'index.html'), 'utf8');
          if (!/^v\d+$/.test(text)) misses++;
        } catch {
          misses++;
        }
        reads++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let v = 1; v <= 30; v++) {
      const next = path.join(dir, `dist.next-1-${v}`);
      mkdirSync(next);
      writeFileSync(path.join(next, 'index.html'), `v${v}`);
      await swapIn(next, dist, `1-${v}`);
    }
    stop = true;
    await reader;
    expect(readFileSync(path.join(dist, 'index.html'), 'utf8')).toBe('v30');
    expect(reads).toBeGreaterThan(30);
    expect(misses).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    // The live build and the one before it stay; older ones go.
    expect(readdirSync(dir).filter((n) => n.startsWith('dist.live-')).sort()).toEqual(['dist.live-1-29', 'dist.live-1-30']);
  });
});

describe('build folders', () => {
  it('knows a sibling whose name starts like the project is outside it', () => {
    expect(isInside('/work/main', '/work/main/dist')).toBe(true);
    expect(isInside('/work/main', '/work/main')).toBe(true);
    expect(isInside('/work/main', '/work/main-dist')).toBe(false);
    expect(isInside('/work/main', '/tmp/dist')).toBe(false);
  });

  it('stages a DIST_DIR outside the project inside it (where node_modules resolves)', () => {
    expect(stagingDirs('/work/main', '/work/main/dist', '1-2')).toEqual({ astroOut: '/work/main/dist.next-1-2', next: '/work/main/dist.next-1-2' });
    const outside = stagingDirs('/work/main', '/work/main-dist', '1-2');
    expect(outside.next).toBe('/work/main-dist.next-1-2');
    expect(isInside('/work/main', outside.astroOut)).toBe(true);
    expect(path.basename(outside.astroOut)).toMatch(/\.next-1-2$/);
  });

  it('warms a cold build child up inside the project, whatever DIST_DIR is, one folder per DIST_DIR', () => {
    for (const dist of ['/work/main/dist', '/work/main-dist', '/srv/luxe/dist']) expect(isInside('/work/main/node_modules', warmUpDir('/work/main', dist, '1-2'))).toBe(true);
    expect(warmUpDir('/work/main', '/srv/a/dist', '1-2')).not.toBe(warmUpDir('/work/main', '/srv/b/dist', '1-2'));
  });

  it('removes unfinished builds of dead processes on start and keeps those of running ones', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'project-'));
    const dist = path.join(mkdtempSync(path.join(tmpdir(), 'serve-')), 'dist');
    const dead = spawnSync('true').pid;
    const live = process.ppid;
    const make = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'index.html'), 'x');
      return dir;
    };
    make(dist);
    const stale = [make(`${dist}.next-${dead}-1`), make(`${dist}.old-${dead}-2`), make(stagingDirs(root, dist, `${dead}-3`).astroOut), make(warmUpDir(root, dist, `${dead}-6`))];
    const kept = [make(`${dist}.next-${live}-4`), make(`${dist}.cache`), make(`${dist}-other.next-${dead}-5`), make(warmUpDir(root, `${dist}-other`, `${dead}-7`))];
    expect(cleanStaleBuilds(root, dist).sort()).toEqual([...stale].sort());
    for (const dir of stale) expect(existsSync(dir)).toBe(false);
    for (const dir of [dist, ...kept]) expect(existsSync(dir)).toBe(true);
  });
});

describe('PUBLISH_COMMAND', () => {
  it('runs with the folder as $1 and PUBLISH_DIR, and the version in PUBLISH_VERSION', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'publish-'));
    const out = path.join(dir, 'out.txt');
    await runPublishCommand(`echo "$1 $PUBLISH_DIR $PUBLISH_VERSION" > ${out}`, '/tmp/the site', 7);
    expect(readFileSync(out, 'utf8').trim()).toBe('/tmp/the site /tmp/the site 7');
  });

  it('says whether it is given the whole site or an edit\'s changes, and which files an edit removed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'publish-'));
    const out = path.join(dir, 'out.txt');
    await runPublishCommand(`echo "$PUBLISH_MODE \${PUBLISH_REMOVED:-none}" > ${out}`, dir, 7);
    expect(readFileSync(out, 'utf8').trim()).toBe('full none');
    await runPublishCommand(`echo "$PUBLISH_MODE $(cat $PUBLISH_REMOVED)" > ${out}`, dir, 8, undefined, { mode: 'changes', removed: path.join(dir, 'removed.txt') }).catch(() => {});
    writeFileSync(path.join(dir, 'removed.txt'), 'car/3/index.html\n');
    await runPublishCommand(`echo "$PUBLISH_MODE $(cat $PUBLISH_REMOVED)" > ${out}`, dir, 8, undefined, { mode: 'changes', removed: path.join(dir, 'removed.txt') });
    expect(readFileSync(out, 'utf8').trim()).toBe('changes car/3/index.html');
  });

  it('fails with its exit code and last output', async () => {
    await expect(runPublishCommand('echo bucket refused >&2; exit 3', '/tmp', 1)).rejects.toThrow(/PUBLISH_COMMAND failed \(exit 3\):\s+bucket refused/);
  });
});

describe('sourceTime', () => {
  it('can leave out the server code, which reaches pages only through the data', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sources-'));
    mkdirSync(path.join(root, 'src', 'pages'), { recursive: true });
    for (const dir of ['pages', 'api', 'host']) mkdirSync(path.join(root, 'src', dir), { recursive: true });
    writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), 'x');
    writeFileSync(path.join(root, 'src', 'api', 'env.ts'), 'x');
    writeFileSync(path.join(root, 'src', 'host', 'main.ts'), 'x');
    utimesSync(path.join(root, 'src', 'pages', 'index.astro'), 1000, 1000);
    utimesSync(path.join(root, 'src', 'api', 'env.ts'), 2000, 2000);
    utimesSync(path.join(root, 'src', 'host', 'main.ts'), 1500, 1500);
    expect(sourceTime(root)).toBe(2_000_000);
    expect(sourceTime(root, { pagesOnly: true })).toBe(1_000_000);
  });
});

describe('buildHeapMb', () => {
  it("gives the build child half the machine's memory, never less than V8's default", () => {
    expect(buildHeapMb(24 * 1024 ** 3)).toBe(12 * 1024);
    expect(buildHeapMb(2 * 1024 ** 3)).toBe(4096);
  });
});
