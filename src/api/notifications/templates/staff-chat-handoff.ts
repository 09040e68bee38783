import { template } from '../template';

/** Staff: a chat visitor asked for a person. */
export default template({
  event: 'staff.chat_handoff',
  audience: 'staff',
  subject: '[LUXE 운영] 채팅 상담 연결 요청',
  title: '채팅 상담 연결 요청이 있습니다',
  lines: ['의전 예약 채팅에서 고객이 상담원 연결을 요청했습니다. 확인 후 연락해주세요.'],
  details: [['고객', '#{고객}'], ['메시지', '#{메시지}'], ['예약 정보', '#{예약정보}'], ['대화 번호', '#{대화번호}']],
  action: { label: '운영 콘솔 열기', path: '/admin#orders' },
  load(_db, e) {
    return Promise.resolve({ userId: null, vars: { 고객: e.contact ?? '', 메시지: e.summary, 예약정보: e.booking ?? '', 대화번호: e.sessionKey } });
  },
});
