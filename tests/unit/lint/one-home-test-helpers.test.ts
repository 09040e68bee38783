import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One home for the API tests' helpers (issue 51): the test clock, the sandbox card, the job run and
 * the admin call live in tests/api/helpers.ts (`apiTools`), the typed client in tests/api/client.ts.
 * A test file that writes its own again (`const setClock = …`, a `runBilling` that posts
 * /admin/billing/run, a `staff` wrapper of ctx.call) fails here: take them from apiTools.
 */
const TESTS = path.join(process.cwd(), 'tests');
const HOMES = new Set([path.join(TESTS, 'api', 'helpers.ts'), path.join(TESTS, 'api', 'client.ts')]);
// A child process with no app to call: it runs its own job runner (createJobRunner), not the route.
const NOT_A_COPY = new Set([path.join(TESTS, 'api', 'fixtures', 'billing-child.ts')]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'e2e' ? [] : sources(full);
    return /\.tsx?$/.test(name) && !HOMES.has(full) && !NOT_A_COPY.has(full) ? [full] : [];
  });
}

/** A definition: a function declaration, or a const/let bound to an arrow or function. */
const defines = (names: string) => new RegExp(String.raw`(^|\n)\s*(export\s+)?((async\s+)?function\s*\*?\s*(${names})\s*[(<]|(const|let|var)\s+(${names})\s*(:[^=\n]+)?=\s*(async\s+)?(\([^)]*\)|\w+)\s*(:[^=\n]+)?=>|(const|let|var)\s+(${names})\s*=\s*(async\s+)?function)`);

const COPIES: [string, RegExp][] = [
  ['setClock, card or runJobs defined again (use apiTools from tests/api/helpers.ts)', defines('setClock|card|runJobs|runBilling|resetClock')],
  [
    'a helper of its own that sets the test clock, runs the jobs or issues a sandbox card (use apiTools)',
    /(^|\n)\s*(const|let)\s+\w+\s*=\s*(async\s*)?\([^)\n]*\)\s*(:[^=\n]+)?=>[^\n]*(\b(call|staff|admin)\(\s*'POST',\s*'\/admin\/(test-clock|billing\/run)'|issueSandboxBillingKey\()/,
  ],
  ["a staff wrapper of ctx.call (use apiTools' admin)", /(^|\n)\s*(const|let)\s+\w+\s*=\s*\(method: string, \w+: string[^)]*\)\s*=>\s*\w+(\(\))?\.call\(/],
];

describe('one home for the API test helpers', () => {
  const files = sources(TESTS);
  for (const [what, pattern] of COPIES) {
    it(`no ${what}`, () => {
      const found = files.filter((f) => pattern.test(readFileSync(f, 'utf8'))).map((f) => path.relative(process.cwd(), f));
      expect(found).toEqual([]);
    });
  }

  it('the patterns catch the copies that were there', () => {
    const [names, helpers, staff] = COPIES.map(([, p]) => p);
    expect(names.test("const setClock = (now: string) => ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: { now } });")).toBe(true);
    expect(names.test("const card = (c: SandboxCard = 'approve') => issueSandboxBillingKey(ctx.config, c);")).toBe(true);
    expect(names.test('const runJobs = async () => {\n  const res = await call();\n};')).toBe(true);
    expect(names.test('  const runBilling = async () => expect(1).toBe(1);')).toBe(true);
    expect(names.test('async function runJobs() {}')).toBe(true);
    expect(helpers.test("const resetTime = () => ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: {} });")).toBe(true);
    expect(helpers.test('const key = () => issueSandboxBillingKey(ctx.config);')).toBe(true);
    expect(staff.test('const staff = (method: string, path: string, json?: unknown) => ctx.call(method, path, { token: ADMIN, json });')).toBe(true);
    expect(staff.test('  const staff = (method: string, path: string) => ctx().call(method, path, { token: TEST_ADMIN_TOKEN });')).toBe(true);
    // Not a copy: a value named card, a call of the shared helper, two replicas' apps asked in turn.
    expect(helpers.test("    const call = async (app: typeof ctx.app) => await app.request('/admin/billing/run', { method: 'POST' });")).toBe(false);
    expect(names.test('    const card = key();')).toBe(false);
    expect(names.test("    const card = board.body.data.handovers.find((h: { id: number }) => h.id === handoverId);")).toBe(false);
    expect(names.test('const { setClock, card, runJobs } = apiTools(() => ctx);')).toBe(false);
  });
});
