import { driverTrip } from '../data';
import { template } from '../template';

/** Staff assigned the driver to a trip: told by 알림톡 (SMS fallback), once per assignment, and listed under 알림 on /driver. */
export default template({
  event: 'driver.trip_assigned',
  audience: 'direct',
  subject: '[LUXE] 새 운행 배정 (##{예약번호})',
  title: '새 운행이 배정되었습니다',
  lines: ['#{기사}님, #{일시} 운행(##{예약번호})이 배정되었습니다.', '출발 전에 기사 화면에서 픽업 주소와 요청 사항을 확인해주세요.'],
  details: [['일시', '#{일시}'], ['픽업 주소', '#{출발지}'], ['도착지', '#{도착지}'], ['항공편', '#{항공편}'], ['차량', '#{차량}']],
  action: { label: '운행 확인하기', path: '/driver' },
  async load(db, e) {
    const trip = await driverTrip(db, e.butlerRequestId, e.driverId);
    if ('skip' in trip) return trip;
    return { userId: null, to: trip.to, vars: { ...trip.vars, 항공편: trip.found.request.flightNumber ?? '' } };
  },
});
