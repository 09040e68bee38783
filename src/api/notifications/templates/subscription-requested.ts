import { day, greeting, liveCustomer, subscriptionRequest, won } from '../data';
import { template } from '../template';

/** The customer's request is in (its first month paid, or nothing to pay). */
export default template({
  event: 'subscription.requested',
  audience: 'customer',
  subject: '[LUXE] 구독 신청 접수 (##{신청번호})',
  title: '구독 신청이 접수되었습니다',
  lines: ['#{고객명}, #{차량} #{기간}개월 구독 신청을 받았습니다.', '담당자가 확인한 뒤 선택하신 구독 시작일(#{시작일})의 인도 일정을 안내해 드립니다.', '계약서(PDF)는 신청 내역에서 내려받을 수 있으며, 원본 확인용 SHA-256 값도 함께 표시됩니다.'],
  details: [['신청 번호', '#{신청번호}'], ['월 구독료', '#{월구독료}'], ['첫 결제 금액', '#{첫결제}']],
  action: { label: '신청 내역 보기', path: '/subscribe/request/#{신청번호}' },
  async load(db, e) {
    const found = await subscriptionRequest(db, e.requestId);
    if (!found) return { skip: '신청을 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: e.userId,
      vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 기간: String(r.month), 신청번호: String(r.id), 시작일: (r.requestedStart ?? r.startDate) ? day((r.requestedStart ?? r.startDate)!) : '미정', 월구독료: won(r.fee), 첫결제: won(r.finalFee) },
    };
  },
});
