import { koreaDate } from '../../../domain/dates';
import { day, greeting, handover, handoverWords, liveCustomer, subscription } from '../data';
import { template } from '../template';

/** Staff scheduled (or moved) the delivery or the return of a subscription's car: when and who. */
export default template({
  event: 'subscription.handover_scheduled',
  audience: 'customer',
  recheckAtSend: true,
  subject: '[LUXE] 차량 #{종류} 일정 안내',
  title: '차량 #{종류} 일정이 잡혔습니다',
  lines: ['#{고객명}, #{차량}의 #{종류} 일정을 알려드립니다.', '일정 변경이 필요하시면 고객센터로 연락해주세요.'],
  details: [['차량', '#{차량}'], ['날짜', '#{날짜}'], ['시간', '#{시간}'], ['담당 기사', '#{기사}'], ['장소', '#{장소}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    const h = await handover(db, e.handoverId);
    if (!found || !h || h.h.status === 'CANCELLED') return { skip: '취소된 일정입니다.' };
    // A swap's pair names its cars (one message schedules both; each record asks for its own acknowledgement).
    const words = await handoverWords(db, h.h, found.request.carId, true);
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 차량: words.car, 종류: words.kind,
        날짜: day(h.h.scheduledDate), 시간: `${h.h.windowStart} ~ ${h.h.windowEnd}`, 기사: h.driver, 장소: h.h.address ?? '',
      },
    };
  },
});
