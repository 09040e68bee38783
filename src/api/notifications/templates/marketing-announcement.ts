import { greeting, liveCustomer } from '../data';
import { template } from '../template';

/**
 * Marketing (광고): only to customers who consented, by email, marked (광고) in the subject as the
 * law asks, with the unsubscribe link the layout adds.
 */
export default template({
  event: 'marketing.announcement',
  audience: 'customer',
  marketing: true,
  recheckAtSend: true,
  subject: '(광고) [LUXE] #{제목}',
  title: '#{제목}',
  lines: ['#{고객명}, #{본문}'],
  action: { label: '자세히 보기', path: '#{경로}' },
  async load(db, e) {
    const user = await liveCustomer(db, e.userId);
    if (!user) return { skip: '탈퇴한 회원입니다.' };
    if (!user.marketingConsent) return { skip: '마케팅 수신에 동의하지 않은 회원입니다.' };
    return { userId: e.userId, vars: { 고객명: greeting(user), 제목: e.title, 본문: e.body, 경로: e.path ?? '/' } };
  },
});
