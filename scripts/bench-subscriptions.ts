import { sql } from 'drizzle-orm';
import type { Db } from '../src/api/db/client';
import type { Config } from '../src/api/env';
import { issueSandboxBillingKey } from '../src/api/billing/sandbox-provider';

/**
 * `count` confirmed 12-month subscriptions of one car that started on `start`, their first month
 * paid, each with its own sandbox billing key (issued for `config`), in one SQL statement: the
 * billing and database-fault benches seed with it and measure what runs after. Users are named
 * `${prefix}${n}` for n from `from`.
 */
export async function insertConfirmedSubscriptions(db: Db, config: Config, opts: { carId: number; start: string; from: number; count: number; prefix: string; name: string; code: string }): Promise<void> {
  const keys = Array.from({ length: opts.count }, () => issueSandboxBillingKey(config));
  await db.execute(sql`
    with u as (
      insert into users (username, name, referral_code, ci_verified)
      select ${opts.prefix} || g, ${opts.name} || g, ${opts.code} || g, true from generate_series(${opts.from}::int, ${opts.from + opts.count - 1}::int) g
      returning id),
    numbered as (select id, row_number() over (order by id) as i from u),
    r as (
      insert into subscription_requests (user_id, car_id, month, billing_key, billing_provider, fee, final_fee, status, start_date, end_date)
      select numbered.id, ${opts.carId}, 12, (${JSON.stringify(keys)}::jsonb ->> (numbered.i - 1)::int), 'sandbox', 555000, 555000, 'CONFIRMED', ${opts.start}, ${opts.start}::date + 365
      from numbered
      returning id, user_id, billing_key)
    insert into subscriptions (request_id, user_id, start_date, end_date, billing_key, paid_months)
    select r.id, r.user_id, ${opts.start}, ${opts.start}::date + 365, r.billing_key, 1 from r`);
}
