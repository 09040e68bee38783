import { changesLine } from '../../../domain/driver-notices';
import { driverNotice } from '../driver-notices';
import { driverTrip } from '../data';
import { template } from '../template';

/** The driver's trip changed (time, addresses, waypoints, flight): before → after, once per change, by 알림톡 (SMS fallback), and on /driver. */
export default template({
  event: 'driver.trip_changed',
  audience: 'direct',
  subject: '[LUXE] 운행 변경 (##{예약번호})',
  title: '배정된 운행이 변경되었습니다',
  lines: ['#{기사}님, 운행(##{예약번호})이 변경되었습니다.', '#{변경}'],
  details: [['일시', '#{일시}'], ['픽업 주소', '#{출발지}'], ['도착지', '#{도착지}']],
  action: { label: '운행 확인하기', path: '/driver' },
  async load(db, e) {
    const trip = await driverTrip(db, e.butlerRequestId, e.driverId);
    if ('skip' in trip) return trip;
    const notice = await driverNotice(db, e.noticeId);
    if (!notice) return { skip: '변경 내역을 찾을 수 없습니다.' };
    return { userId: null, to: trip.to, vars: { ...trip.vars, 변경: changesLine(notice.changes) } };
  },
});
