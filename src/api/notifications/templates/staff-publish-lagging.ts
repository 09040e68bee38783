import { and, eq, gte } from 'drizzle-orm';
import { publishBuilds } from '../../db/schema';
import { dateTime } from '../data';
import { template } from '../template';

/** Staff: the storefront's pages lag the catalogue by more than a minute (src/api/catalogue/publish-lag-alert.ts). */
export default template({
  event: 'staff.publish_lagging',
  audience: 'staff',
  subject: '[LUXE 운영] 사이트 게시 지연',
  title: '사이트가 카탈로그를 따라가지 못합니다',
  lines: ['#{시작} 이후의 카탈로그 변경(버전 #{카탈로그버전})이 1분 넘게 사이트에 게시되지 않았습니다. 고객에게는 이전 페이지(버전 #{게시버전})가 보입니다. 콘솔의 게시 상태를 확인하고 지금 게시를 눌러주세요.'],
  details: [['마지막 빌드 오류', '#{오류}']],
  action: { label: '게시 상태 열기', path: '/admin' },
  async load(db, e) {
    // Caught up since the alert was queued (a build of this version or a newer one is done): nothing to say.
    const [done] = await db.select({ id: publishBuilds.id }).from(publishBuilds).where(and(eq(publishBuilds.status, 'done'), gte(publishBuilds.catalogueVersion, e.catalogueVersion))).limit(1);
    if (done) return { skip: '그 사이 게시되었습니다.' };
    return { userId: null, vars: { 시작: dateTime(new Date(e.since)), 카탈로그버전: String(e.catalogueVersion), 게시버전: e.publishedVersion === null ? '없음' : String(e.publishedVersion), 오류: e.error ?? '' } };
  },
});
