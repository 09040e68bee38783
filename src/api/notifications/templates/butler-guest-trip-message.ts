import { and, eq, gt } from 'drizzle-orm';
import { tripMessages } from '../../db/schema';
import { butlerRequest, tripTime } from '../data';
import { template } from '../template';

/** Who answered, as the guest is told (the booker is the customer of the trip). */
const SENDER_NAME = { staff: 'LUXE 고객센터', customer: '예약 담당자' } as const;

/**
 * A company trip's guest: the driver, the booker or staff answered in the trip's thread. By 알림톡 to
 * the guest's phone on the trip only, leading to their own page of the thread (the link made from
 * `guestTrip`); at most once per GUEST_NOTICE_GAP_MS a trip (src/api/dispatch/trip-thread.ts).
 */
export default template({
  event: 'butler.guest_trip_message',
  audience: 'direct',
  subject: '[LUXE] 운행 메시지가 도착했습니다 (##{예약번호})',
  title: '새 메시지가 도착했습니다',
  lines: ['#{탑승객}님, #{일시} 운행에 #{보낸분이} 메시지를 남겼습니다.', '아래 링크에서 확인하고 바로 답장하실 수 있습니다.'],
  details: [['픽업 주소', '#{출발지}']],
  particles: { 보낸분이: ['보낸분', '이/가'] },
  action: { label: '메시지 보기', path: '#{상세경로}' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    const r = found?.request;
    if (!r || r.status === 'CANCELLED') return { skip: '취소된 예약입니다.' };
    if (!r.companyId || !r.guestPhone) return { skip: '탑승객 연락처가 없는 예약입니다.' };
    const [message] = await db.select({ sender: tripMessages.sender }).from(tripMessages).where(eq(tripMessages.id, e.messageId));
    if (!message || message.sender === 'guest') return { skip: '탑승객 본인의 메시지입니다.' };
    // The guest wrote after the answer: they have read it on their page.
    const [replied] = await db.select({ id: tripMessages.id }).from(tripMessages).where(and(eq(tripMessages.butlerRequestId, r.id), eq(tripMessages.sender, 'guest'), gt(tripMessages.id, e.messageId))).limit(1);
    if (replied) return { skip: '탑승객이 이미 메시지를 읽었습니다.' };
    const sender = message.sender === 'driver' ? (found.driver ? `${found.driver.name} 기사님` : '기사님') : SENDER_NAME[message.sender];
    return {
      userId: null,
      to: [{ channel: 'kakao', to: r.guestPhone, guestTrip: { id: r.id, guestPhone: r.guestPhone } }],
      vars: { 탑승객: r.guestName?.trim() || '탑승객', 예약번호: String(r.id), 일시: tripTime(r), 출발지: r.startLocation, 보낸분: sender },
    };
  },
});
