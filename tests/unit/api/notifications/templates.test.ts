import { describe, expect, it } from 'vitest';
import { fill, fillTemplate, kakaoTemplateText, kakaoText } from '../../../../src/api/notifications/template';
import { TEMPLATES } from '../../../../src/api/notifications/templates';
import { emailHtml, emailText } from '../../../../src/api/notifications/templates/layout';
import { unsubscribeToken, verifyUnsubscribeToken } from '../../../../src/api/notifications/unsubscribe';

/** Every placeholder of a template filled with a sample value. */
function sample(t: (typeof TEMPLATES)[keyof typeof TEMPLATES]) {
  const names = new Set<string>();
  const texts = [t.subject, t.title, ...t.lines, ...(t.details ?? []).map(([, v]) => v), t.action.path, t.action.label];
  for (const text of texts) for (const m of text.matchAll(/#\{([^}]+)\}/g)) names.add(m[1]);
  return Object.fromEntries([...names].map((n) => [n, n.includes('경로') || n === '영수증' ? '/my' : n === '버튼' ? '보기' : `<${n}>`]));
}

describe('templates', () => {
  it('one per event, Korean, short, with a link; the email escapes values and the kakao text carries the link', async () => {
    for (const [event, t] of Object.entries(TEMPLATES)) {
      expect(t.event).toBe(event);
      const filled = fillTemplate(t, sample(t), 'https://luxe.example');
      expect(filled.subject, event).toMatch(/[가-힣]/);
      expect(filled.title.length, event).toBeLessThanOrEqual(40);
      expect(filled.action.url, event).toMatch(/^https:\/\/luxe\.example\//);
      const text = emailText(filled, { contactPhone: '02-6952-0808' });
      expect(text, event).toContain(filled.action.url);
      const html = await emailHtml(filled, { contactPhone: '02-6952-0808' });
      expect(html, event).not.toMatch(/<(?!\/?(html|head|meta|title|body|table|tr|td|h1|p|a|br)\b|!doctype)[^>]*>/i);
      expect(kakaoText(filled), event).toContain(filled.action.url);
      expect(kakaoText(filled).length, event).toBeLessThanOrEqual(1000);
      expect(kakaoTemplateText(t), event).toContain('#{링크}');
    }
  });

  it('marketing mail says (광고) and carries the unsubscribe link in text and HTML', async () => {
    const t = TEMPLATES['marketing.announcement'];
    const filled = fillTemplate(t, { 고객명: '홍길동님', 제목: '봄 혜택', 본문: '안내', 경로: '/garage' }, 'https://luxe.example');
    expect(filled.subject).toBe('(광고) [LUXE] 봄 혜택');
    const o = { contactPhone: '02-6952-0808', unsubscribeUrl: 'https://luxe.example/api/notifications/unsubscribe?token=1.x' };
    expect(emailText(filled, o)).toContain(o.unsubscribeUrl);
    expect(await emailHtml(filled, o)).toContain('href="https://luxe.example/api/notifications/unsubscribe?token=1.x"');
  });
});

describe('placeholders', () => {
  it('fill #{name}; a # before one stays (신청 #12); a missing value is blank', () => {
    expect(fill('신청 ##{번호} · #{없음}끝', { 번호: '12' })).toBe('신청 #12 · 끝');
  });
});

describe('unsubscribe tokens', () => {
  it('verify for their user only, under the same secret', () => {
    const token = unsubscribeToken('s1', 42);
    expect(verifyUnsubscribeToken('s1', token)).toBe(42);
    expect(verifyUnsubscribeToken('s2', token)).toBeNull();
    expect(verifyUnsubscribeToken('s1', token.replace(/^42/, '43'))).toBeNull();
    expect(verifyUnsubscribeToken('s1', `${token}x`)).toBeNull();
    expect(verifyUnsubscribeToken('s1', '99999999999.abc')).toBeNull();
  });
});
