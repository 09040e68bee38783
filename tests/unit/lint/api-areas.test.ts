import path from 'node:path';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import apiAreas, { API_AREAS, apiRank } from '../../../eslint/api-areas.js';

/** The lint rule that keeps src/api's imports running down (eslint/api-areas.js, on in eslint.config.js). */
const root = process.cwd();
const linter = new Linter({ cwd: root });
const config = [{ files: ['**/*.ts'], plugins: { 'api-areas': apiAreas }, rules: { 'api-areas/areas': 'error' as const } }];
const lint = (file: string, code: string) => linter.verify(code, config, { filename: path.join(root, file) }).map((m) => m.message);

describe('src/api imports run down', () => {
  it('refuses an area importing one above it', () => {
    expect(lint('src/api/wallet/points.ts', "import { priorOrder } from '../orders/checkout';")).toEqual([expect.stringMatching(/wallet\/ must not import orders\//)]);
    expect(lint('src/api/billing/charges.ts', "export { createRequest } from '../orders/subscription-orders';")).toHaveLength(1);
  });

  it('refuses shared infrastructure importing any area, and an import() too', () => {
    expect(lint('src/api/http.ts', "import { chargeMonth } from './billing/subscription-billing';")).toEqual([expect.stringMatching(/shared infrastructure must not import billing\//)]);
    expect(lint('src/api/db/client.ts', "const m = import('../catalogue/catalogue');")).toHaveLength(1);
  });

  it('lets an area import the areas below it, itself and infrastructure; the composition root imports all', () => {
    expect(lint('src/api/orders/checkout.ts', "import { executeCharge } from '../billing/charges';\nimport { takeCoupon } from './coupons';\nimport { ok } from '../http';")).toEqual([]);
    expect(lint('src/api/app.ts', "import { sandboxBillingRoutes } from './sandbox/billing-routes';")).toEqual([]);
  });

  it('names a folder that is not an area, so a new one is placed on purpose', () => {
    expect(lint('src/api/payments/new.ts', "export const x = 1;")).toEqual([expect.stringMatching(/payments is not an area/)]);
  });

  it('knows every folder of src/api', () => {
    expect(apiRank(path.join(root, 'src/api/sandbox/access.ts'), path.join(root, 'src/api'))).toBe(API_AREAS.indexOf('sandbox'));
    expect(apiRank(path.join(root, 'src/api/auth/guards.ts'), path.join(root, 'src/api'))).toBe(-1);
  });
});
