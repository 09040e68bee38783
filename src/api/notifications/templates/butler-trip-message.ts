import { eq } from 'drizzle-orm';
import { tripMessages } from '../../db/schema';
import { butlerRequest, greeting, liveCustomer, tripTime, tripPagePath } from '../data';
import { template } from '../template';

/** Who wrote, as the subject names them: the driver, staff, or a company trip's guest (their link's reply). */
const SENDER_NAME = { driver: '기사님', staff: 'LUXE 고객센터', guest: '탑승객', customer: '기사님' } as const;

/** 기사님과 메시지: the driver, staff or the trip's guest wrote in the trip's thread; once per unread batch, by 알림톡 and email, leading to the trip page. */
export default template({
  event: 'butler.trip_message',
  audience: 'customer',
  subject: '[LUXE] #{보낸분} 메시지가 도착했습니다 (##{예약번호})',
  title: '새 메시지가 도착했습니다',
  lines: ['#{고객명}, 예약(##{예약번호})에 새 메시지가 도착했습니다.', '예약 화면의 기사님과 메시지에서 확인하고 답장할 수 있습니다.'],
  details: [['일시', '#{일시}'], ['픽업 주소', '#{출발지}']],
  action: { label: '메시지 보기', path: '#{상세경로}' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found || found.request.status === 'CANCELLED') return { skip: '취소된 예약입니다.' };
    const r = found.request;
    const [message] = await db.select({ sender: tripMessages.sender }).from(tripMessages).where(eq(tripMessages.id, e.messageId));
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 예약번호: String(r.id), 일시: tripTime(r), 출발지: r.startLocation,
        상세경로: tripPagePath(found), 보낸분: SENDER_NAME[message?.sender ?? 'driver'],
      },
    };
  },
});
