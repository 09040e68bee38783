import type { DriverStage } from '../../domain/driver-day';

/**
 * The driver's taps not yet accepted by the server, kept in local storage (`driverPendingTaps`) so
 * a tap made without a connection survives a reload and is sent when the phone is back online. The
 * API records each (trip, stage) once, so sending one twice is harmless. Taps are sent in the
 * order made; the first one that fails for the network stops the run (the rest wait behind it).
 */
export interface PendingTap {
  trip_id: number;
  stage: DriverStage;
  /** When the driver tapped (ISO): recorded as the stage's time when it arrives later. */
  tapped_at: string;
}

export const PENDING_TAPS_KEY = 'driverPendingTaps';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function valid(v: unknown): v is PendingTap {
  const t = v as PendingTap;
  return Boolean(t) && Number.isInteger(t.trip_id) && typeof t.stage === 'string' && typeof t.tapped_at === 'string';
}

export function loadTaps(store: Store): PendingTap[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(PENDING_TAPS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(valid) : [];
  } catch {
    return [];
  }
}

export function saveTaps(store: Store, taps: PendingTap[]): void {
  if (taps.length) store.setItem(PENDING_TAPS_KEY, JSON.stringify(taps));
  else store.removeItem(PENDING_TAPS_KEY);
}

/** Adds a tap unless the same trip and stage is already waiting. */
export function addTap(taps: PendingTap[], tap: PendingTap): PendingTap[] {
  return taps.some((t) => t.trip_id === tap.trip_id && t.stage === tap.stage) ? taps : [...taps, tap];
}

const removeTap = (taps: PendingTap[], tap: Pick<PendingTap, 'trip_id' | 'stage'>) => taps.filter((t) => !(t.trip_id === tap.trip_id && t.stage === tap.stage));

/** What happened to one send: accepted (or already recorded), refused by the server (drop it and say why), or no connection (keep it). */
export type SendResult = { kind: 'done' } | { kind: 'refused'; message: string } | { kind: 'offline' };

/**
 * Sends the waiting taps in order; stops at the first that finds no connection. Answers the taps
 * still waiting and the refusals' messages. `send` must not throw.
 */
export async function flushTaps(taps: PendingTap[], send: (tap: PendingTap) => Promise<SendResult>): Promise<{ left: PendingTap[]; refused: string[] }> {
  let left = [...taps];
  const refused: string[] = [];
  for (const tap of taps) {
    const result = await send(tap);
    if (result.kind === 'offline') break;
    left = removeTap(left, tap);
    if (result.kind === 'refused') refused.push(result.message);
  }
  return { left, refused };
}
