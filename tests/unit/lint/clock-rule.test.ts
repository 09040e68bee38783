import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * One clock (src/api/jobs/clock.ts, eslint/clock-rule.js): the project's own lint configuration
 * refuses a wall-clock read in the API and the domain, and leaves the clock module and the site alone.
 */
const eslint = new ESLint({ cwd: process.cwd() });
const clockErrors = async (file: string, extra: string) => {
  const [result] = await eslint.lintText(`${readFileSync(file, 'utf8')}\n${extra}\n`, { filePath: file });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && /clock/.test(m.message)).map((m) => m.message);
};

describe('the one-clock lint rule', () => {
  it('refuses new Date() and Date.now() in the API and the domain', async () => {
    expect(await clockErrors('src/api/orders/checkout.ts', 'export const at = new Date();')).toHaveLength(1);
    expect(await clockErrors('src/api/orders/checkout.ts', 'export const ms = Date.now();')).toHaveLength(1);
    expect(await clockErrors('src/domain/car.ts', 'export const at = new Date();')).toHaveLength(1);
  }, 60_000);

  it('allows an instant built from a value, the clock module itself, and the browser', async () => {
    expect(await clockErrors('src/api/orders/checkout.ts', "export const at = new Date('2026-12-02T00:00:00Z');")).toEqual([]);
    expect(await clockErrors('src/api/jobs/clock.ts', 'export const at = new Date();')).toEqual([]);
    expect(await clockErrors('src/islands/order/OrderPage.tsx', 'export const at = new Date();')).toEqual([]);
  }, 60_000);
});
