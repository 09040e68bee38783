import { and, asc, eq } from 'drizzle-orm';
import { locationAccessLog } from '../../db/schema';
import { dateTime, greeting, liveCustomer } from '../data';
import { template } from '../template';

/** Rows the message lists one by one; more are summed up in one line (all are on /driver). */
const LISTED = 10;

/**
 * 위치정보 제공사실 통보 (위치정보법 제19조제3항, 시행령 제24조: gathered over 30 days, with the
 * driver's consent): who saw the driver's position, when and for what, since the last notice.
 */
export default template({
  event: 'driver.location_reads',
  audience: 'customer',
  subject: '[LUXE] 위치정보 이용·제공 내역 안내',
  title: '위치정보 이용·제공 내역 안내',
  lines: [
    '#{기사명}, 지난 안내 이후 기사님의 운행 중 위치를 본 내역을 알려드립니다 (모두 #{건수}건).',
    '#{내역}',
    '내역은 기사 운행 화면에서 언제든 확인할 수 있고, 위치 공유 동의는 같은 화면에서 철회할 수 있습니다.',
  ],
  action: { label: '내역 보기', path: '/driver' },
  async load(db, e) {
    const rows = await db
      .select()
      .from(locationAccessLog)
      .where(and(eq(locationAccessLog.driverId, e.driverId), eq(locationAccessLog.noticedAt, new Date(e.batchAt))))
      .orderBy(asc(locationAccessLog.firstReadAt), asc(locationAccessLog.id));
    // Withdrawn consent (rows deleted) or nothing left to tell.
    if (!rows.length) return { skip: '알릴 내역이 없습니다.' };
    const listed = rows.slice(0, LISTED).map((r) => `· ${dateTime(r.firstReadAt)}${r.lastReadAt > r.firstReadAt ? ` ~ ${dateTime(r.lastReadAt)}` : ''} ${r.readerLabel} (운행 #${r.butlerRequestId}, ${r.purpose})`);
    if (rows.length > LISTED) listed.push(`· 그 밖에 ${rows.length - LISTED}건`);
    return {
      userId: e.userId,
      vars: { 기사명: greeting(await liveCustomer(db, e.userId)).replace(/님$/, ' 기사님'), 건수: String(rows.length), 내역: listed.join('\n') },
    };
  },
});
