import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeOutcomesFor, refundFollowUp } from '../../src/api/charge-outcomes';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { billingKeyUses } from '../../src/api/db/schema';
import { ApiError } from '../../src/api/errors';
import { claimKey, inOrderLock, type Orderer } from '../../src/api/orders/checkout';
import type { PaymentContext } from '../../src/api/payment-context';
import { insertUser } from '../../src/api/seed/factories';
import { createTestContext, type TestContext } from './helpers';

/**
 * The branches of inOrderLock (orders/checkout.ts) the HTTP tests do not reach one by one: a key
 * use found under the lock, another user's key use that appears while this order is recorded
 * (claimKey, or a unique violation of the insert), and a unique violation of the order's own.
 */
let ctx: TestContext;
let pay: PaymentContext;
const onPostgres = process.env.TEST_DB === 'postgres';

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.database.db;
  pay = { db, clock: ctx.clock, log: () => {}, payments: createPaymentProvider(db, ctx.config, ctx.clock), outcomes: chargeOutcomesFor(ctx.config), refunded: refundFollowUp };
});
afterAll(() => ctx.close());

let keys = 0;
const orderer = async (): Promise<Orderer> => ({ service: 'BUTLER', userId: (await insertUser(ctx.database.db)).id, billingKey: `steps-key-${++keys}` });
const uniqueViolation = () => Object.assign(new Error('duplicate key value violates unique constraint "butler_reserved_car_date_uq"'), { code: '23505' });

describe('inOrderLock', () => {
  it('places the order when the key is free, with the key claimed', async () => {
    const who = await orderer();
    const placed = await inOrderLock(pay, who, async (tx) => {
      await claimKey(tx, who, 41);
      return { orderId: 41, chargeId: null };
    });
    expect(placed).toEqual({ created: true, orderId: 41, chargeId: null });
    expect((await ctx.database.db.select().from(billingKeyUses).where(eq(billingKeyUses.billingKey, who.billingKey)))[0]?.orderId).toBe(41);
  });

  it('a unique violation that is not the key is the caller\'s to explain: thrown as it was, nothing kept', async () => {
    const who = await orderer();
    const err = uniqueViolation();
    await expect(inOrderLock(pay, who, async (tx) => {
      await claimKey(tx, who, 42);
      throw err;
    })).rejects.toBe(err);
    expect(await ctx.database.db.select().from(billingKeyUses).where(eq(billingKeyUses.billingKey, who.billingKey))).toEqual([]);
  });

  it('a key use found under the lock (a twin of the same user committed first) answers the first order', async () => {
    const who = await orderer();
    await ctx.database.db.insert(billingKeyUses).values({ billingKey: who.billingKey, service: who.service, userId: who.userId, orderId: 7 });
    let ran = false;
    const placed = await inOrderLock(pay, who, () => {
      ran = true;
      return Promise.resolve({ orderId: 44, chargeId: null });
    });
    expect(placed).toEqual({ created: false, orderId: 7, payment: null });
    expect(ran).toBe(false);
  });

  // Another user's order with the same key commits while this one is recorded: on PostgreSQL only
  // (PGlite has one connection, so no transaction commits inside another).
  it.skipIf(!onPostgres)('another user\'s key use committed before claimKey is 409, nothing of this order kept', async () => {
    const who = await orderer();
    const other = await orderer();
    const replica = await ctx.openReplica();
    try {
      const answer = inOrderLock(pay, who, async (tx) => {
        await replica.db.insert(billingKeyUses).values({ billingKey: who.billingKey, service: 'BUTLER', userId: other.userId, orderId: 8 });
        await claimKey(tx, who, 45);
        return { orderId: 45, chargeId: null };
      });
      await expect(answer).rejects.toBeInstanceOf(ApiError);
      await expect(answer).rejects.toMatchObject({ status: 409, message: '이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.' });
      expect((await ctx.database.db.select().from(billingKeyUses).where(eq(billingKeyUses.billingKey, who.billingKey)))[0]?.userId).toBe(other.userId);
    } finally {
      await replica.close();
    }
  });

  it.skipIf(!onPostgres)('a unique violation after another user took the key is 409 (the key is used), not the violation', async () => {
    const who = await orderer();
    const other = await orderer();
    const replica = await ctx.openReplica();
    try {
      const answer = inOrderLock(pay, who, async () => {
        await replica.db.insert(billingKeyUses).values({ billingKey: who.billingKey, service: 'SUBSCRIBE', userId: other.userId, orderId: 9 });
        throw uniqueViolation();
      });
      await expect(answer).rejects.toMatchObject({ status: 409, message: '이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.' });
    } finally {
      await replica.close();
    }
  });
});
