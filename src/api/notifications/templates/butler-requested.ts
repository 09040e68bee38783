import { butlerRequest, greeting, liveCustomer, tripTime, won } from '../data';
import { template } from '../template';

/** The booking is in and paid; staff confirm it next. */
export default template({
  event: 'butler.requested',
  audience: 'customer',
  subject: '[LUXE] 의전 예약 접수 (##{예약번호})',
  title: '의전 예약이 접수되었습니다',
  lines: ['#{고객명}, #{차량} 의전 예약을 받았습니다.', '담당자가 확인한 뒤 확정 안내를 드립니다.'],
  details: [['일시', '#{일시}'], ['출발지', '#{출발지}'], ['도착지', '#{도착지}'], ['결제 금액', '#{금액}']],
  action: { label: '예약 내역 보기', path: '/butler/request/#{예약번호}' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: e.userId,
      vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 예약번호: String(r.id), 일시: tripTime(r), 출발지: r.startLocation, 도착지: r.endLocation, 금액: won(r.finalPrice) },
    };
  },
});
