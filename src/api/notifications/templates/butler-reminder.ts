import { formatPhone } from '../../../domain/accounts';
import { BUTLER_REMINDER_BEFORE_MS } from '../events';
import { butlerRequest, tripTime, tripPagePath, guestCopy, tripGreeting } from '../data';
import { template } from '../template';

/** While no driver is assigned the reminder is asked again this often, until this long before the start. */
const HOLD_POLL_MS = 30 * 60_000;
const HOLD_UNTIL_BEFORE_START_MS = 60 * 60_000;

/**
 * The day before the trip (start − 24 h, scheduled by the butler service): time, pickup address
 * and car, the driver, their phone and the plate. Held while no driver is assigned (asked again
 * every 30 minutes; staff are alerted meanwhile) and dropped an hour before a start still without
 * one. Not sent for a cancelled booking or a trip that already started (checked again just before
 * sending); a trip moved later waits for its new time.
 */
export default template({
  event: 'butler.reminder',
  audience: 'customer',
  recheckAtSend: true,
  subject: '[LUXE] 내일 의전 일정 안내',
  title: '내일 의전 일정을 알려드립니다',
  lines: ['#{고객명}, 예약하신 의전 일정이 다가왔습니다.', '기사님이 출발 시각 10분 전까지 픽업 주소에 도착합니다.'],
  details: [['일시', '#{일시}'], ['픽업 주소', '#{출발지}'], ['차량', '#{차량}'], ['기사', '#{기사}'], ['기사 연락처', '#{기사연락처}'], ['차량 번호', '#{차량번호}']],
  action: { label: '예약 보기', path: '#{상세경로}' },
  async load(db, e, now) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found || found.request.status === 'CANCELLED') return { skip: '취소된 예약입니다.' };
    const r = found.request;
    const driver = found.driver;
    if (now >= r.startAt) return { skip: '이미 시작된 운행입니다.' };
    const due = new Date(r.startAt.getTime() - BUTLER_REMINDER_BEFORE_MS);
    if (now.getTime() < due.getTime() - 60_000) return { deferUntil: due };
    // "기사님이 … 도착합니다" names nobody until staff assign one: held, never sent without a driver.
    if (!driver) {
      const lastChance = r.startAt.getTime() - HOLD_UNTIL_BEFORE_START_MS;
      return now.getTime() < lastChance ? { deferUntil: new Date(Math.min(now.getTime() + HOLD_POLL_MS, lastChance)) } : { skip: '배정된 기사가 없어 보내지 않았습니다.' };
    }
    return {
      userId: e.userId,
      copyTo: guestCopy(r),
      vars: {
        고객명: await tripGreeting(db, r, e.userId), 차량: found.car, 일시: tripTime(r), 출발지: r.startLocation,
        기사: driver.name, 기사연락처: formatPhone(driver.phone), 차량번호: found.licensePlate ?? '',
        상세경로: tripPagePath(found),
      },
    };
  },
});
