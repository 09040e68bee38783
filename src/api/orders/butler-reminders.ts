import { UNASSIGNED_ALERTS, unassignedAlertAt } from '../../domain/dispatch';
import type { Db } from '../db/client';
import { rescheduleQueued } from '../jobs/queue';
import { BUTLER_REMINDER_BEFORE_MS, butlerReminderKey, emit, notifyJobKey, unassignedAlertKey } from '../notifications/events';
import type { PaymentContext } from '../payment-context';

/**
 * The reminder the day before the trip (start − 24 h on the business clock), scheduled when the
 * booking is made and moved when an edit moves the trip; none for a trip less than a day ahead.
 * The notify job skips it if the booking was cancelled by then.
 */
export async function scheduleReminder(tx: Db, ctx: Pick<PaymentContext, 'clock'>, id: number, userId: number, start: Date) {
  const due = new Date(start.getTime() - BUTLER_REMINDER_BEFORE_MS);
  await scheduleUnassignedAlerts(tx, ctx.clock.now(), id, start);
  if (await rescheduleQueued(tx, notifyJobKey(butlerReminderKey(id)), due)) return;
  if (due > ctx.clock.now()) await emit(tx, butlerReminderKey(id), { type: 'butler.reminder', userId, butlerRequestId: id }, due);
}

/** Staff's alerts of a trip still without a driver the evening before and the morning of (each dropped at send time once a driver is assigned). */
async function scheduleUnassignedAlerts(tx: Db, now: Date, id: number, start: Date) {
  for (const alert of UNASSIGNED_ALERTS) {
    const due = unassignedAlertAt(start, alert);
    if (await rescheduleQueued(tx, notifyJobKey(unassignedAlertKey(id, alert)), due)) continue;
    if (due > now) await emit(tx, unassignedAlertKey(id, alert), { type: 'staff.butler_unassigned', butlerRequestId: id, alert }, due);
  }
}
