import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../../src/api/notifications/templates';
import { fillTemplate, type Filled } from '../../../../src/api/notifications/template';

/**
 * A particle written after a placeholder is right for one value and wrong for the next ("월 구독료
 * 5,790,000원가", "911 Carrera S을"): a value that takes a particle comes with it, made by
 * withParticle (src/domain/korean.ts) in the template's load, as #{새차량으로}. Amounts are the one
 * exception: won() always ends in 원, so "#{금액}이" is always right.
 */
const PARTICLE_AFTER_PLACEHOLDER = /#\{([^}]+)\}(을|를|은|는|이|가|과|와|으로|로)(?=[\s.,!?)]|$)/gu;
const ALWAYS_WON = /(금액|구독료|요금|수수료|차액)$/u;

function textsOf(t: (typeof TEMPLATES)[keyof typeof TEMPLATES]): string[] {
  return [t.subject, t.title, ...t.lines, ...(t.details ?? []).flatMap(([label, value]) => [label, value]), t.action.label];
}

describe('notification templates: no hand-written particle after a placeholder', () => {
  it('every template of every event', () => {
    const found: string[] = [];
    for (const [event, t] of Object.entries(TEMPLATES)) {
      for (const text of textsOf(t)) {
        for (const m of text.matchAll(PARTICLE_AFTER_PLACEHOLDER)) if (!ALWAYS_WON.test(m[1])) found.push(`${event}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the rule sees what it is for', () => {
    const hits = (text: string) => [...text.matchAll(PARTICLE_AFTER_PLACEHOLDER)].map((m) => m[0]);
    expect(hits('#{기존차량}을 반납하고 #{새차량}으로 바뀝니다.')).toEqual(['#{기존차량}을', '#{새차량}으로']);
    expect(hits('#{교체일}로 예정된')).toEqual(['#{교체일}로']);
    expect(hits('#{새차량으로} 바뀝니다. #{차량} 이용 #{차량}이용')).toEqual([]);
  });
});

/**
 * Every template of every event, filled with a car name that ends in a vowel, in a consonant and
 * in a Latin letter (issue 49: "911 Carrera S을", "Mercedes Benz G-Class은(는)"): each particle
 * that follows a value agrees with how the value is read, whichever it is.
 */
const NAMES = [
  { kind: 'a vowel', name: 'BMW M8 쿠페', 을: '를', 으로: '로', 은: '는', 이: '가' },
  { kind: 'a consonant', name: 'Porsche 타이칸', 을: '을', 으로: '으로', 은: '은', 이: '이' },
  { kind: 'ㄹ', name: '벤츠 G바겐 스페셜', 을: '을', 으로: '로', 은: '은', 이: '이' },
  { kind: 'a Latin letter', name: '911 Carrera S', 을: '를', 으로: '로', 은: '는', 이: '가' },
] as const;

const PLACEHOLDER = /#\{([^}]+)\}/g;
const textOf = (m: Filled) => [m.subject, m.title, ...m.lines, ...m.details.flat(), m.action.label].join('\n');

describe('notification templates filled with every kind of name', () => {
  for (const sample of NAMES) {
    it(`agree with a name ending in ${sample.kind} (${sample.name})`, () => {
      const pairs: [string, string][] = [['을', '를'], ['으로', '로'], ['은', '는'], ['이', '가']];
      const wrong = pairs.map(([a, b]) => {
        const right = sample[a as '을' | '으로' | '은' | '이'];
        return right === a ? b : a;
      });
      const bad: string[] = [];
      for (const [event, t] of Object.entries(TEMPLATES)) {
        const names = new Set<string>();
        for (const text of [t.subject, t.title, ...t.lines, ...(t.details ?? []).flat(), t.action.label]) for (const m of text.matchAll(PLACEHOLDER)) names.add(m[1]);
        // Amounts are always won (…원이): the names go everywhere else.
        const vars = Object.fromEntries([...names].map((n) => [n, ALWAYS_WON.test(n) ? '1,000,000원' : sample.name]));
        const text = textOf(fillTemplate(t, vars, 'https://luxe.example'));
        for (const w of wrong) {
          // A wrong particle right after the name, ending the word (so 911 Carrera S는 is not read in 911 Carrera S는지).
          if (new RegExp(`${sample.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${w}(?=[\\s.,!?)]|$)`, 'u').test(text)) bad.push(`${event}: …${sample.name}${w}`);
        }
        // The particle-carrying values are made, never left empty or with both forms.
        for (const name of Object.keys(t.particles ?? {})) if (names.has(name)) expect(text, `${event} #{${name}}`).not.toMatch(/\(를\)|\(로\)|\(는\)|\(가\)/);
      }
      expect(bad).toEqual([]);
    });
  }

  it('the templates that name two cars carry both particles from the names (a swap)', () => {
    const t = TEMPLATES['subscription.swapped'];
    const filled = fillTemplate(t, { 고객명: '홍길동 고객님', 교체일: '2027.01.15', 기존차량: '911 Carrera S', 새차량: 'Porsche 타이칸', 계산: '', 새월구독료: '1,000,000원' }, 'https://luxe.example');
    expect(filled.vars.기존차량을).toBe('911 Carrera S를');
    expect(filled.vars.새차량을).toBe('Porsche 타이칸을');
  });
});
