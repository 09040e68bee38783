import { z } from 'zod';
import { defaultEnd } from './butler';
import type { OrderStatus } from './orders';

/**
 * 기사님과 메시지 (issue 50): the in-trip thread between the customer and the assigned driver, kept
 * with the booking, so neither needs the other's number. Pure rules: when the thread is open, who
 * the sides are, and the body a message may have. The caller gives the business clock's now.
 */

/** `guest`: a company trip's passenger, through their link (no account; issue 52). */
export type TripMessageSender = 'customer' | 'driver' | 'staff' | 'guest';
/** The two sides that read a thread (staff read it without marking it). */
export type TripThreadReader = 'customer' | 'driver';

/** The longest message body (characters, after trimming). */
export const TRIP_MESSAGE_MAX = 500;
/** How long after the trip's end the thread stays open. */
const TRIP_THREAD_AFTER_END_MS = 2 * 3_600_000;

export const THREAD_CLOSED = {
  cancelled: '취소된 예약에는 메시지를 보낼 수 없습니다.',
  unassigned: '기사님이 배정된 뒤부터 메시지를 주고받을 수 있습니다.',
  ended: '운행이 끝나고 2시간이 지나 메시지를 보낼 수 없습니다.',
} as const;
type ThreadClosedReason = keyof typeof THREAD_CLOSED;

export interface ThreadTrip {
  status: OrderStatus;
  driverId: number | null;
  startAt: Date;
  endAt: Date | null;
  actualEndAt: Date | null;
}

/** The trip's end the window counts from: the recorded 운행 종료, else the booked end, else start + 8 hours. */
export function tripThreadEnd(t: Pick<ThreadTrip, 'startAt' | 'endAt' | 'actualEndAt'>): Date {
  return t.actualEndAt ?? t.endAt ?? defaultEnd(t.startAt);
}

export type ThreadWindow = { open: true; closesAt: Date } | { open: false; reason: ThreadClosedReason; closesAt: Date | null };

/** Open from the driver's assignment until TRIP_THREAD_AFTER_END_MS after the trip's end; a cancelled or unassigned trip is closed. */
export function threadWindow(t: ThreadTrip, now: Date): ThreadWindow {
  if (t.status === 'CANCELLED') return { open: false, reason: 'cancelled', closesAt: null };
  if (t.status !== 'CONFIRMED' || t.driverId === null) return { open: false, reason: 'unassigned', closesAt: null };
  const closesAt = new Date(tripThreadEnd(t).getTime() + TRIP_THREAD_AFTER_END_MS);
  return now.getTime() <= closesAt.getTime() ? { open: true, closesAt } : { open: false, reason: 'ended', closesAt };
}

/** Who the page names as a message's sender. */
export const SENDER_LABEL: Record<TripMessageSender, string> = { customer: '고객', driver: '기사님', staff: 'LUXE 고객센터', guest: '탑승객' };

/** How many messages a trip's guest may send through their link in GUEST_MESSAGE_WINDOW_MS (a link can be forwarded). */
export const GUEST_MESSAGE_LIMIT = 10;
export const GUEST_MESSAGE_WINDOW_MS = 10 * 60_000;
export const GUEST_MESSAGE_LIMITED = '메시지를 너무 자주 보내셨습니다. 잠시 후 다시 보내주세요.';

/**
 * A company trip's guest hears of an answer (the driver's, the booker's, staff's) by 알림톡 with their
 * link, at most once in this long a trip: a second answer within it waits on the page the first led to.
 */
export const GUEST_NOTICE_GAP_MS = 10 * 60_000;

/** POST …/messages: the text (trimmed, 1–500 characters) and an optional client id so a retried post is one message. */
export const TripMessageSchema = z.object({
  body: z
    .string({ error: '메시지를 입력해주세요.' })
    .trim()
    .min(1, { error: '메시지를 입력해주세요.' })
    .max(TRIP_MESSAGE_MAX, { error: `메시지는 ${TRIP_MESSAGE_MAX}자 이내로 입력해주세요.` }),
  client_id: z.uuid({ error: '메시지 식별자가 올바르지 않습니다.' }).optional(),
});
export type TripMessageInput = z.infer<typeof TripMessageSchema>;

export interface TripMessageView {
  id: number;
  sender: TripMessageSender;
  /** Whether the reader wrote it (staff: a staff message). */
  mine: boolean;
  body: string;
  created_at: string;
}

export interface TripThreadView {
  open: boolean;
  /** Why it is closed (Korean), null while open. */
  closed_message: string | null;
  closes_at: string | null;
  messages: TripMessageView[];
}

export interface TripThreadAnswer {
  thread: TripThreadView;
}

export interface TripMessageAnswer {
  message: TripMessageView;
  created: boolean;
}
