import { describe, expect, it } from 'vitest';
import { THREAD_CLOSED, threadWindow, TripMessageSchema, tripThreadEnd, type ThreadTrip } from '../../../src/domain/trip-thread';

const trip = (over: Partial<ThreadTrip> = {}): ThreadTrip => ({
  status: 'CONFIRMED', driverId: 7, startAt: new Date('2026-12-10T00:00:00Z'), endAt: new Date('2026-12-10T08:00:00Z'), actualEndAt: null, ...over,
});
const at = (iso: string) => new Date(iso);

describe('threadWindow', () => {
  it('is open once a driver is assigned, until 2 hours after the booked end', () => {
    expect(threadWindow(trip(), at('2026-12-01T00:00:00Z'))).toEqual({ open: true, closesAt: at('2026-12-10T10:00:00Z') });
    expect(threadWindow(trip(), at('2026-12-10T10:00:00Z')).open).toBe(true);
    expect(threadWindow(trip(), at('2026-12-10T10:00:01Z'))).toEqual({ open: false, reason: 'ended', closesAt: at('2026-12-10T10:00:00Z') });
  });
  it('counts from the recorded 운행 종료 when there is one, else start + 8 hours', () => {
    const early = trip({ actualEndAt: at('2026-12-10T05:00:00Z') });
    expect(threadWindow(early, at('2026-12-10T07:30:00Z')).open).toBe(false);
    expect(tripThreadEnd(trip({ endAt: null }))).toEqual(at('2026-12-10T08:00:00Z'));
  });
  it('is closed before the assignment, while pending, and once cancelled', () => {
    const now = at('2026-12-01T00:00:00Z');
    expect(threadWindow(trip({ driverId: null }), now)).toMatchObject({ open: false, reason: 'unassigned' });
    expect(threadWindow(trip({ status: 'PENDING' }), now)).toMatchObject({ open: false, reason: 'unassigned' });
    expect(threadWindow(trip({ status: 'CANCELLED' }), now)).toMatchObject({ open: false, reason: 'cancelled' });
    expect(THREAD_CLOSED.cancelled).toBe('취소된 예약에는 메시지를 보낼 수 없습니다.');
  });
});

describe('TripMessageSchema', () => {
  it('trims, keeps what was written (a number too), and bounds the length', () => {
    expect(TripMessageSchema.parse({ body: '  010-1234-5678로 연락 주세요 ' }).body).toBe('010-1234-5678로 연락 주세요');
    expect(TripMessageSchema.safeParse({ body: '   ' }).error?.issues[0].message).toBe('메시지를 입력해주세요.');
    expect(TripMessageSchema.safeParse({ body: '가'.repeat(500) }).success).toBe(true);
    expect(TripMessageSchema.safeParse({ body: '가'.repeat(501) }).error?.issues[0].message).toBe('메시지는 500자 이내로 입력해주세요.');
    expect(TripMessageSchema.safeParse({ body: '안녕', client_id: 'x' }).success).toBe(false);
  });
});
