import { butlerRequest, liveCustomer, tripTime, won } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a new butler booking waits for confirmation. */
export default template({
  event: 'staff.butler_requested',
  audience: 'staff',
  subject: '[LUXE 운영] 새 의전 예약 ##{예약번호}',
  title: '새 의전 예약이 들어왔습니다',
  lines: ['#{차량} 의전 예약(##{예약번호})이 접수되었습니다. 콘솔에서 확인하고 확정해주세요.'],
  details: [['고객', '#{고객}'], ['일시', '#{일시}'], ['출발지', '#{출발지}'], ['도착지', '#{도착지}'], ['인원', '#{인원}'], ['결제 금액', '#{금액}']],
  action: { label: '주문 관리 열기', path: '/admin#orders' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: null,
      vars: { 예약번호: String(r.id), 차량: found.car, 고객: contact(await liveCustomer(db, r.userId)), 일시: tripTime(r), 출발지: r.startLocation, 도착지: r.endLocation, 인원: `${r.passengerCount}명`, 금액: won(r.finalPrice) },
    };
  },
});
