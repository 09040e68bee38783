import { eq } from 'drizzle-orm';
import { driverInvites, drivers } from '../../db/schema';
import { dateTime } from '../data';
import { template } from '../template';

/** Staff invited a roster driver: the link to /driver that signs them up (single use, until it expires). */
export default template({
  event: 'driver.invited',
  audience: 'direct',
  subject: '[LUXE] 기사 계정 초대',
  title: 'LUXE 기사 계정에 초대되었습니다',
  lines: ['#{기사}님, 아래 링크에서 비밀번호를 정하면 오늘과 내일의 운행을 휴대폰에서 확인할 수 있습니다.', '링크는 #{만료} 까지 한 번만 쓸 수 있습니다.'],
  action: { label: '기사 계정 만들기', path: '/driver?invite=#{코드}' },
  async load(db, e) {
    const [row] = await db.select({ invite: driverInvites, name: drivers.name }).from(driverInvites).innerJoin(drivers, eq(drivers.id, driverInvites.driverId)).where(eq(driverInvites.id, e.inviteId));
    if (!row) return { skip: '초대를 찾을 수 없습니다.' };
    if (row.invite.usedAt) return { skip: '이미 사용된 초대입니다.' };
    return {
      userId: null,
      to: [{ channel: row.invite.channel === 'phone' ? 'kakao' : 'email', to: row.invite.address }],
      vars: { 기사: row.name, 만료: dateTime(row.invite.expiresAt), 코드: e.code },
    };
  },
});
