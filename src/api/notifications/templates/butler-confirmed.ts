import { butlerRequest, tripTime, tripPagePath, guestCopy, tripGreeting } from '../data';
import { template } from '../template';

/** Staff confirmed the booking. */
export default template({
  event: 'butler.confirmed',
  audience: 'customer',
  subject: '[LUXE] 의전 예약 확정 (##{예약번호})',
  title: '의전 예약이 확정되었습니다',
  lines: ['#{고객명}, #{차량} 의전 예약이 확정되었습니다.', '운행 하루 전에 일정을 다시 알려드립니다.'],
  details: [['일시', '#{일시}'], ['출발지', '#{출발지}'], ['도착지', '#{도착지}']],
  action: { label: '예약 보기', path: '#{상세경로}' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    if (found.request.status === 'CANCELLED') return { skip: '취소된 예약입니다.' };
    const r = found.request;
    return {
      userId: e.userId,
      copyTo: guestCopy(r),
      vars: {
        고객명: await tripGreeting(db, r, e.userId), 차량: found.car, 예약번호: String(r.id), 일시: tripTime(r), 출발지: r.startLocation, 도착지: r.endLocation,
        상세경로: tripPagePath(found),
      },
    };
  },
});
