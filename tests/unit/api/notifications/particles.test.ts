import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../../src/api/notifications/templates';

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
