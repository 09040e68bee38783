import { unassignedAlertAt } from '../../../domain/dispatch';
import { butlerRequest, tripTime } from '../data';
import { template } from '../template';

/**
 * Staff: a trip of tomorrow (17:00 the day before) or today (07:00) has no driver. Checked again
 * just before sending: dropped once a driver is assigned, the booking cancelled or the trip begun;
 * a trip moved since waits for its new time.
 */
export default template({
  event: 'staff.butler_unassigned',
  audience: 'staff',
  recheckAtSend: true,
  subject: '[LUXE 운영] 기사 미배정 의전 운행 ##{예약번호}',
  title: '#{언제} 의전 운행에 배정된 기사가 없습니다',
  lines: ['#{차량} 의전 운행(##{예약번호})에 아직 기사가 배정되지 않았습니다. 배차 보드에서 기사를 배정해주세요.', '고객 안내(전날 알림)는 기사가 배정될 때까지 보내지 않고 있습니다.'],
  details: [['일시', '#{일시}'], ['출발지', '#{출발지}']],
  action: { label: '배차 보드 열기', path: '/admin#dispatch' },
  async load(db, e, now) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found || found.request.status === 'CANCELLED') return { skip: '취소된 예약입니다.' };
    const r = found.request;
    if (r.driverId) return { skip: '기사가 배정되었습니다.' };
    if (now >= r.startAt) return { skip: '이미 시작 시각이 지났습니다.' };
    const due = unassignedAlertAt(r.startAt, e.alert);
    if (now.getTime() < due.getTime() - 60_000) return { deferUntil: due };
    return { userId: null, vars: { 언제: e.alert === 'eve' ? '내일' : '오늘', 예약번호: String(r.id), 차량: found.car, 일시: tripTime(r), 출발지: r.startLocation } };
  },
});
