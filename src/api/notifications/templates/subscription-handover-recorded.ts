import { koreaDate } from '../../../domain/dates';
import { day, greeting, handover, handoverWords, liveCustomer, subscription } from '../data';
import { template } from '../template';
import { formatNumber } from '../../../domain/money';

/** The handover was recorded: the readings, and a request to acknowledge them on my subscriptions. */
export default template({
  event: 'subscription.handover_recorded',
  audience: 'customer',
  subject: '[LUXE] 차량 #{종류} 기록 확인 요청',
  title: '#{종류} 기록을 확인해주세요',
  lines: ['#{고객명}, #{차량}의 #{종류} 기록이 작성되었습니다.', '내 구독에서 주행거리와 연료(충전) 잔량을 확인하고 이름을 입력해 확인을 완료해주세요.'],
  details: [['차량', '#{차량}'], ['날짜', '#{날짜}'], ['주행거리', '#{주행거리}'], ['연료(충전) 잔량', '#{잔량}']],
  action: { label: '기록 확인하기', path: '/my/subscriptions' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    const h = await handover(db, e.handoverId);
    if (!found || !h || h.h.status !== 'DONE') return { skip: '기록이 없습니다.' };
    // A swap's pair names its cars (one message schedules both; each record asks for its own acknowledgement).
    const words = await handoverWords(db, h.h, found.request.carId);
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 차량: words.car, 종류: words.kind,
        날짜: day(h.h.actualDate ?? h.h.scheduledDate), 주행거리: `${formatNumber(h.h.odometerKm ?? 0)}km`, 잔량: `${h.h.fuelPercent ?? 0}%`,
      },
    };
  },
});
