import { eq } from 'drizzle-orm';
import { COMPANY_ROLE_LABELS } from '../../../domain/company';
import { companies, companyInvites } from '../../db/schema';
import { dateTime } from '../data';
import { template } from '../template';

/** A company admin invited someone: the link to /my/company/join that adds them (single use, until it expires). */
export default template({
  event: 'company.invited',
  audience: 'direct',
  subject: '[LUXE] #{회사} 법인 계정 초대',
  title: '#{회사} 법인 계정에 초대되었습니다',
  lines: ['#{회사}에서 #{역할}(으)로 초대했습니다.', '아래 링크에서 로그인한 뒤 초대를 수락해주세요. 링크는 #{만료}까지 한 번만 쓸 수 있습니다.'],
  action: { label: '초대 수락하기', path: '/my/company/join?code=#{코드}' },
  async load(db, e) {
    const [row] = await db.select({ invite: companyInvites, name: companies.name }).from(companyInvites).innerJoin(companies, eq(companies.id, companyInvites.companyId)).where(eq(companyInvites.id, e.inviteId));
    if (!row) return { skip: '초대를 찾을 수 없습니다.' };
    if (row.invite.usedAt) return { skip: '이미 사용된 초대입니다.' };
    return {
      userId: null,
      to: [{ channel: row.invite.channel === 'phone' ? 'kakao' : 'email', to: row.invite.address }],
      vars: { 회사: row.name, 역할: COMPANY_ROLE_LABELS[row.invite.role], 만료: dateTime(row.invite.expiresAt), 코드: e.code },
    };
  },
});
