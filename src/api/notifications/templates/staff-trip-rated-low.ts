import { eq } from 'drizzle-orm';
import { drivers, tripRatings } from '../../db/schema';
import { butlerRequest, tripTime } from '../data';
import { template } from '../template';

/** Staff: a customer rated a trip poorly (LOW_RATING_MAX stars or fewer), with what they wrote for the driver. */
export default template({
  event: 'staff.trip_rated_low',
  audience: 'staff',
  subject: '[LUXE 운영] 낮은 운행 평가 ##{예약번호} (#{별점}점)',
  title: '고객이 운행을 #{별점}점으로 평가했습니다',
  lines: ['#{차량} 의전 운행(##{예약번호})의 고객 평가가 낮습니다. 고객에게 연락해 사정을 확인해주세요.'],
  details: [['일시', '#{일시}'], ['기사', '#{기사}'], ['별점', '#{별점}점 / 5점'], ['고객 의견', '#{의견}']],
  action: { label: '기사 관리 열기', path: '/admin#drivers' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    const [rating] = await db.select({ score: tripRatings.score, comment: tripRatings.comment, driver: drivers.name }).from(tripRatings).leftJoin(drivers, eq(drivers.id, tripRatings.driverId)).where(eq(tripRatings.butlerRequestId, e.butlerRequestId));
    if (!found || !rating) return { skip: '평가를 찾을 수 없습니다.' };
    return { userId: null, vars: { 예약번호: String(e.butlerRequestId), 차량: found.car, 일시: tripTime(found.request), 기사: rating.driver ?? '배정 없음', 별점: String(rating.score), 의견: rating.comment ?? '(남기지 않음)' } };
  },
});
