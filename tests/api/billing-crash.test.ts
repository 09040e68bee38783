import { spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { insertTestCar, insertUser } from '../../src/api/seed/factories';
import { payments, sandboxPayments } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN, testConfig } from '../../src/api/env';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { openSession } from '../../src/api/accounts/sessions';
import { persistentDatabase } from './helpers';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };

it('kill -9 in the middle of a monthly charge, then a restart: the provider sees one payment id, charged once, and the ledger says PAID', async () => {
  const store = await persistentDatabase();
  // Here the slow card answers in 0.3 s (the first month settles at once); the doomed replica's in 8 s.
  const config = testConfig({ payments: { ...testConfig().payments, sandboxSlowMs: 300 } });
  let database = await store.open();
  let app = createApp({ db: database.db, config });
  const post = (path: string, body: unknown, headers: Record<string, string> = ADMIN) => app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
  // A 3-month subscription starting 2030-05-20 whose card answers slowly (the sandbox's slow test card).
  await post('/admin/test-clock', { now: '2030-05-01T12:00:00+09:00' });
  const { car } = await insertTestCar(database.db, { fees: { subscription_fee_3: 700_000 } });
  const user = await insertUser(database.db);
  const { access_token } = await openSession(database.db, config, user.id);
  const order = await post(`/subscriptions/cars/${car.id}/request`, { month: 3, billing_key: issueSandboxBillingKey(config, 'slow') }, { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' });
  expect(order.status).toBe(201);
  const requestId = (await order.json()).data.subscription_request.id;
  const confirmed = await post(`/admin/subscription-requests/${requestId}/confirm`, { start_date: '2030-05-20' });
  expect(confirmed.status).toBe(201);
  const subscriptionId = (await confirmed.json()).data.subscription.id;
  await database.close();

  // A replica starts charging month 2 and is killed while the provider is still answering.
  // One process (tsx as a loader, not its wrapper that forks), so SIGKILL kills the replica itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/api/fixtures/billing-child.ts'], { env: { ...process.env, ...store.env, CLOCK_NOW: '2030-06-20T12:00:00+09:00', SANDBOX_SLOW_MS: '8000' }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('charging') && resolve());
    child.on('exit', (code) => reject(new Error(`the child ended early (${code})`)));
  });
  await new Promise((r) => setTimeout(r, 2500));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  // Restart: the charge is PENDING, unknown to the provider; the reconcile job sends it again under the same id.
  database = await store.open();
  app = createApp({ db: database.db, config: testConfig({ payments: { ...config.payments, sandboxSlowMs: 0 } }) });
  const id = `sub-${subscriptionId}-m2`;
  expect((await database.db.select().from(payments).where(eq(payments.id, id)))[0]?.status).toBe('PENDING');
  await post('/admin/test-clock', { now: '2030-06-20T13:00:00+09:00' });
  await post('/admin/billing/run', {});
  await post('/admin/billing/run', {});
  const ledger = await database.db.select().from(payments).where(eq(payments.refId, subscriptionId));
  expect(ledger.filter((p) => p.refType === 'subscription').map((p) => [p.id, p.status])).toEqual([[id, 'PAID']]);
  expect((await database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, id))).map((p) => p.status)).toEqual(['PAID']);
  await database.close();
  await store.drop();
}, 120_000);
