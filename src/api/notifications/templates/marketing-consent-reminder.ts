import { koreaDate } from '../../../domain/dates';
import { day, greeting, liveCustomer } from '../data';
import { template } from '../template';

/**
 * The 2-yearly reminder of the marketing consent (정보통신망법 제50조⑧, 시행령 제62조의3): who sends,
 * the day the consent was given, that it is still given and how to keep or withdraw it. Not an
 * advertisement itself (no (광고) mark, no night hold); dropped when the consent was withdrawn or
 * given again meanwhile (that consent has its own reminders).
 */
export default template({
  event: 'marketing.consent_reminder',
  audience: 'customer',
  recheckAtSend: true,
  subject: '[LUXE] 광고성 정보 수신 동의 안내',
  title: '광고성 정보 수신 동의 안내',
  lines: [
    '#{고객명}, LUXE의 광고성 정보(이벤트·혜택 안내) 수신에 #{동의일}에 동의하셨으며 현재 동의가 유지되고 있음을 알려드립니다.',
    '계속 받으시려면 따로 하실 일은 없습니다. 받지 않으시려면 마이페이지의 알림 설정에서 언제든 수신 동의를 철회할 수 있습니다.',
  ],
  details: [['전송자', 'LUXE'], ['수신 동의일', '#{동의일}'], ['동의 상태', '수신 동의']],
  action: { label: '수신 설정 보기', path: '/my' },
  async load(db, e) {
    const user = await liveCustomer(db, e.userId);
    if (!user) return { skip: '탈퇴한 회원입니다.' };
    if (!user.marketingConsent || !user.marketingConsentAt) return { skip: '마케팅 수신 동의가 철회되었습니다.' };
    if (user.marketingConsentAt.toISOString() !== e.consentAt) return { skip: '수신 동의를 다시 하여 새 안내 주기가 시작되었습니다.' };
    return { userId: e.userId, vars: { 고객명: greeting(user), 동의일: day(koreaDate(user.marketingConsentAt)) } };
  },
});
