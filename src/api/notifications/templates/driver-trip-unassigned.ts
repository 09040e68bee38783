import { driverTrip } from '../data';
import { template } from '../template';

/** The trip went to another driver (or its driver was removed): the old driver is told once, by 알림톡 (SMS fallback), and on /driver. */
export default template({
  event: 'driver.trip_unassigned',
  audience: 'direct',
  subject: '[LUXE] 운행 배정 해제 (##{예약번호})',
  title: '운행 배정이 해제되었습니다',
  lines: ['#{기사}님, #{일시} #{출발지} 출발 운행(##{예약번호})의 배정이 해제되었습니다.', '이 운행은 출발하지 않으셔도 됩니다.'],
  action: { label: '운행 확인하기', path: '/driver' },
  async load(db, e) {
    const trip = await driverTrip(db, e.butlerRequestId, e.driverId);
    if ('skip' in trip) return trip;
    return { userId: null, to: trip.to, vars: { ...trip.vars } };
  },
});
