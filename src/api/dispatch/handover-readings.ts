import { and, eq, isNull } from 'drizzle-orm';
import { koreaDate } from '../../domain/dates';
import type { HandoverKind, HandoverReadings } from '../../domain/handover';
import type { Db } from '../db/client';
import { subscriptionHandovers } from '../db/schema';

/**
 * The odometer (and fuel) recorded at a subscription's delivery and at its return; null for the
 * one not recorded yet. What mileage and overage (src/api/billing/mileage.ts, wired by the lead)
 * read as the start and end readings.
 */
export async function handoverReadings(db: Db, subscriptionId: number): Promise<HandoverReadings> {
  const rows = await db
    .select()
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), isNull(subscriptionHandovers.swapId), eq(subscriptionHandovers.status, 'DONE')));
  const reading = (kind: HandoverKind) => {
    const r = rows.find((x) => x.kind === kind);
    return r && r.odometerKm !== null && r.fuelPercent !== null && r.recordedAt
      ? { odometer_km: r.odometerKm, fuel_percent: r.fuelPercent, recorded_at: r.recordedAt, actual_date: r.actualDate ?? koreaDate(r.recordedAt) }
      : null;
  };
  return { delivery: reading('DELIVERY'), return: reading('RETURN') };
}
