import { changesLine, customerChangeLine } from '../../../domain/driver-notices';
import { priceChangeLine } from '../../../domain/trip-change';
import { butlerRequest, tripTime, tripPagePath, guestCopy, tripGreeting } from '../data';
import { template } from '../template';

/** Staff changed the customer's trip (a late flight moved the pickup, an address, a stop, the flight, the hours): what changed and what it did to the price, once per change. */
export default template({
  event: 'butler.trip_changed',
  audience: 'customer',
  subject: '[LUXE] 의전 예약 변경 안내 (##{예약번호})',
  title: '의전 예약이 변경되었습니다',
  lines: ['#{고객명}, #{안내}', '변경 내용: #{변경}', '#{금액}', '예약번호 ##{예약번호}'],
  details: [['일시', '#{일시}'], ['픽업 주소', '#{출발지}'], ['차량', '#{차량}']],
  action: { label: '예약 확인하기', path: '#{상세경로}' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found || found.request.status === 'CANCELLED') return { skip: '취소된 예약입니다.' };
    const r = found.request;
    return {
      userId: e.userId,
      copyTo: guestCopy(r),
      vars: {
        고객명: await tripGreeting(db, r, e.userId), 안내: customerChangeLine(e.cause, e.changes, r.startAt.toISOString()), 변경: changesLine(e.changes), 금액: priceChangeLine(e.price ?? null),
        예약번호: String(r.id), 일시: tripTime(r), 출발지: r.startLocation, 차량: found.car,
        상세경로: tripPagePath(found),
      },
    };
  },
});
