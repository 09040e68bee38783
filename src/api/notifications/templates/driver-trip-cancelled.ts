import { driverTrip } from '../data';
import { template } from '../template';

/** A trip assigned to the driver was cancelled: the driver is told by 알림톡 (SMS fallback), once, and sees it on /driver. */
export default template({
  event: 'driver.trip_cancelled',
  audience: 'direct',
  subject: '[LUXE] 배정 운행 취소 (##{예약번호})',
  title: '배정된 운행이 취소되었습니다',
  lines: ['#{기사}님, #{일시} #{출발지} 출발 운행(##{예약번호}, #{차량})이 취소되었습니다.', '이 시간에는 출발하지 않으셔도 됩니다.'],
  action: { label: '운행 확인하기', path: '/driver' },
  async load(db, e) {
    const trip = await driverTrip(db, e.butlerRequestId, e.driverId);
    if ('skip' in trip) return trip;
    return { userId: null, to: trip.to, vars: { ...trip.vars } };
  },
});
