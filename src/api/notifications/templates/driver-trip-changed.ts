import { eq } from 'drizzle-orm';
import { changesLine } from '../../../domain/driver-notices';
import { drivers } from '../../db/schema';
import { driverNotice } from '../driver-notices';
import { butlerRequest, tripTime } from '../data';
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
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    const notice = await driverNotice(db, e.noticeId);
    if (!notice) return { skip: '변경 내역을 찾을 수 없습니다.' };
    const [driver] = await db.select({ name: drivers.name, phone: drivers.phone }).from(drivers).where(eq(drivers.id, e.driverId));
    if (!driver) return { skip: '기사를 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: null,
      to: [{ channel: 'kakao', to: driver.phone }],
      vars: { 기사: driver.name, 변경: changesLine(notice.changes), 일시: tripTime(r), 출발지: r.startLocation, 도착지: r.endLocation, 예약번호: String(r.id) },
    };
  },
});
