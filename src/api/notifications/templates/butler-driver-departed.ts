import { formatPhone } from '../../../domain/accounts';
import { butlerRequest, tripTime, tripPagePath, guestCopy, tripGreeting } from '../data';
import { template } from '../template';

/** The driver tapped 출발 on /driver: who is coming, in which car, and the trip page that follows the stages. */
export default template({
  event: 'butler.driver_departed',
  audience: 'customer',
  subject: '[LUXE] 기사님이 출발했습니다 (##{예약번호})',
  title: '기사님이 출발했습니다',
  lines: ['#{고객명}, 기사님이 픽업 주소로 출발했습니다.', '운행 현황은 아래 예약 화면에서 확인할 수 있습니다.'],
  details: [['기사', '#{기사}'], ['기사 연락처', '#{기사연락처}'], ['차량', '#{차량}'], ['차량 번호', '#{차량번호}'], ['일시', '#{일시}'], ['픽업 주소', '#{출발지}']],
  action: { label: '운행 현황 보기', path: '#{상세경로}' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found || found.request.status === 'CANCELLED') return { skip: '취소된 예약입니다.' };
    const r = found.request;
    const driver = found.driver;
    return {
      userId: e.userId,
      copyTo: guestCopy(r),
      vars: {
        고객명: await tripGreeting(db, r, e.userId), 예약번호: String(r.id), 차량: found.car, 일시: tripTime(r), 출발지: r.startLocation,
        기사: driver?.name ?? '', 기사연락처: driver ? formatPhone(driver.phone) : '', 차량번호: found.licensePlate ?? '',
        상세경로: tripPagePath(found),
      },
    };
  },
});
