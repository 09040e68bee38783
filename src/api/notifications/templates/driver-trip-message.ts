import { driverTrip } from '../data';
import { template } from '../template';

/** 고객과 메시지: the customer (or staff) wrote in the trip's thread; once per unread batch, by 알림톡 (SMS fallback) to the roster phone. */
export default template({
  event: 'driver.trip_message',
  audience: 'direct',
  subject: '[LUXE] 고객 메시지 (##{예약번호})',
  title: '고객 메시지가 도착했습니다',
  lines: ['#{기사}님, #{일시} 운행(##{예약번호})에 새 메시지가 도착했습니다.', '기사 화면의 고객과 메시지에서 확인하고 답장해주세요.'],
  details: [['픽업 주소', '#{출발지}']],
  action: { label: '메시지 보기', path: '/driver' },
  async load(db, e) {
    const trip = await driverTrip(db, e.butlerRequestId, e.driverId);
    if ('skip' in trip) return trip;
    const r = trip.found.request;
    if (r.status === 'CANCELLED' || r.driverId !== e.driverId) return { skip: '이 기사에게 배정된 운행이 아닙니다.' };
    return { userId: null, to: trip.to, vars: { ...trip.vars } };
  },
});
