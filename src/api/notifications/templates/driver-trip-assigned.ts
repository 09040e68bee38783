import { eq } from 'drizzle-orm';
import { drivers } from '../../db/schema';
import { butlerRequest, tripTime } from '../data';
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
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    const [driver] = await db.select({ name: drivers.name, phone: drivers.phone }).from(drivers).where(eq(drivers.id, e.driverId));
    if (!driver) return { skip: '기사를 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: null,
      to: [{ channel: 'kakao', to: driver.phone }],
      vars: { 기사: driver.name, 일시: tripTime(r), 출발지: r.startLocation, 도착지: r.endLocation, 항공편: r.flightNumber ?? '', 예약번호: String(r.id), 차량: found.car },
    };
  },
});
