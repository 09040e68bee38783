import { inArray } from 'drizzle-orm';
import type { CompanyTripView } from '../../domain/company';
import type { Db } from '../db/client';
import { butlerRequests, companies, users } from '../db/schema';

type TripRow = typeof butlerRequests.$inferSelect;

/** The company part of each company trip among `rows` (by trip id), with the company's and the booker's names, in two queries. */
export async function companyTripViews(db: Db, rows: TripRow[]): Promise<Map<number, CompanyTripView>> {
  const trips = rows.filter((r) => r.companyId !== null);
  const out = new Map<number, CompanyTripView>();
  if (!trips.length) return out;
  const names = new Map((await db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, [...new Set(trips.map((r) => r.companyId!))]))).map((c) => [c.id, c.name]));
  const bookers = new Map((await db.select({ id: users.id, name: users.name, username: users.username }).from(users).where(inArray(users.id, [...new Set(trips.map((r) => r.userId))]))).map((u) => [u.id, u.name ?? u.username]));
  for (const r of trips) {
    out.set(r.id, {
      company_id: r.companyId!, company_name: names.get(r.companyId!) ?? '', booker_name: bookers.get(r.userId) ?? '',
      guest_name: r.guestName, guest_phone: r.guestPhone, cost_centre: r.costCentre, billing: r.invoiceBilled ? 'INVOICE' : 'CARD',
      approval_status: r.approvalStatus, approval_reason: r.approvalReason,
    });
  }
  return out;
}
