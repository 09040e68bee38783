import type { TripStage } from './butler';
import { formatPhone } from './accounts';
import { withParticle } from './korean';

/**
 * The day of a chauffeured trip as the driver records it on /driver: 출발 (leaves for the
 * pickup) → 도착 (at the pickup) → 탑승 (the passenger is in: the trip's actual start) → 운행 종료
 * (the actual end; overtime is charged from 탑승 and 운행 종료). Strictly in this order.
 */
export const DRIVER_STAGES = ['departed', 'arrived', 'boarded', 'ended'] as const;
export type DriverStage = (typeof DRIVER_STAGES)[number];

/** The buttons' words. */
export const DRIVER_STAGE_LABEL: Record<DriverStage, string> = {
  departed: '출발',
  arrived: '도착',
  boarded: '탑승',
  ended: '운행 종료',
};

/** The recorded time of each stage (ISO instant) or null. */
export type StageTimes = Record<DriverStage, string | null>;

/** The first stage not yet recorded (null once 운행 종료 is recorded). */
export function nextStage(times: StageTimes): DriverStage | null {
  return DRIVER_STAGES.find((s) => !times[s]) ?? null;
}

/** The stage before `stage` (null for 출발). */
export function previousStage(stage: DriverStage): DriverStage | null {
  const i = DRIVER_STAGES.indexOf(stage);
  return i > 0 ? DRIVER_STAGES[i - 1] : null;
}

/**
 * Why a set of times is out of order (each recorded stage needs the ones before it, and no time
 * may be before the previous one; 운행 종료 strictly after 탑승), or null when it is in order.
 */
export function stageOrderProblem(times: StageTimes): string | null {
  let last: { stage: DriverStage; at: number } | null = null;
  for (const stage of DRIVER_STAGES) {
    const at = times[stage];
    if (!at) {
      const later = DRIVER_STAGES.slice(DRIVER_STAGES.indexOf(stage) + 1).find((s) => times[s]);
      if (later) return `${withParticle(DRIVER_STAGE_LABEL[stage], '을/를')} 먼저 기록해야 ${withParticle(DRIVER_STAGE_LABEL[later], '을/를')} 기록할 수 있습니다.`;
      continue;
    }
    const t = Date.parse(at);
    if (last && (t < last.at || (stage === 'ended' && t === last.at))) return `${DRIVER_STAGE_LABEL[stage]} 시각은 ${DRIVER_STAGE_LABEL[last.stage]} 시각 이후여야 합니다.`;
    last = { stage, at: t };
  }
  return null;
}

/** A phone shown to the driver: the middle digits hidden (010-****-5678). */
export function maskPhone(digits: string | null): string | null {
  if (!digits) return null;
  const shown = formatPhone(digits);
  const parts = shown.split('-');
  return parts.length === 3 ? `${parts[0]}-${'*'.repeat(parts[1].length)}-${parts[2]}` : shown.replace(/\d(?=\d{4})/g, '*');
}

/** A trip as the driver's phone shows it (their own trips only). */
export interface DriverTrip {
  id: number;
  stage: TripStage;
  start_at: string;
  end_at: string | null;
  start_location: string;
  end_location: string;
  way_points: { address: string; scheduled_time: string | null }[];
  passenger_count: number;
  purpose: string | null;
  memo: string | null;
  /** The flight of an airport pickup (KE123): the pickup time is when the customer expects to come out; null when none. */
  flight_number: string | null;
  passenger: { name: string; phone_masked: string | null };
  car: { name: string; license_plate: string | null };
  times: StageTimes;
  next_stage: DriverStage | null;
}

/** GET /driver/trips: the signed-in driver's live trips starting today and tomorrow (Korean days), by start. */
export interface DriverTripsAnswer {
  driver: { id: number; name: string };
  today: string;
  trips: DriverTrip[];
  /** The driver's trips of the coming days cancelled since they were assigned (the message said so too). */
  cancelled: DriverCancelledTrip[];
  /** The server's time of this answer: the phone counts a wait on from it (never by its own clock: the wait is money). */
  now: string;
  /** The waiting rule the charge applies (the PUBLIC_BUTLER_WAITING_* settings), for the wait shown while the driver waits. */
  waiting_policy: { airport_free_minutes: number; free_minutes: number; step_minutes: number };
}

/** A trip of the driver's that is off: when it was, from where, and when it was cancelled. */
interface DriverCancelledTrip {
  id: number;
  start_at: string;
  start_location: string;
  cancelled_at: string;
}

/** How many days ahead (today included) /driver lists the driver's cancelled trips. */
export const CANCELLED_TRIPS_DAYS = 14;

/** POST /driver/trips/{id}/stages/{stage}: the trip after the tap; `recorded` false when the stage was already recorded (a retried tap). */
export interface DriverStageAnswer {
  trip: DriverTrip;
  recorded: boolean;
  /** The overtime charged after 운행 종료 (0 when none), with its hours. */
  overtime: { amount: number; hours: number } | null;
}

/** POST /admin/drivers/{id}/invite. */
export interface DriverInviteAnswer {
  invite: { id: number; channel: 'phone' | 'email'; address: string; expires_at: string };
}

/** How long an invite can be used. */
export const DRIVER_INVITE_TTL_HOURS = 72;

/** The customer's live view of the driver's last shared position (null when none is shared). */
export interface TripPositionView {
  lat: number;
  lng: number;
  accuracy: number | null;
  recorded_at: string;
}

/** How long after 운행 종료 the last position is kept before the purge job deletes it. */
export const POSITION_KEEP_MINUTES = 60;
/** How often the driver's open page shares its position during an active trip. */
export const POSITION_INTERVAL_MS = 10_000;
