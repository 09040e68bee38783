import { describe, expect, it } from 'vitest';
import { withParticle } from '../../../src/domain/korean';

describe('withParticle: the particle a word takes, not 을(를)', () => {
  it('after a final consonant, a vowel, and ㄹ', () => {
    expect(withParticle('이미지 설명', '을/를')).toBe('이미지 설명을');
    expect(withParticle('차량 번호', '을/를')).toBe('차량 번호를');
    expect(withParticle('목적', '은/는')).toBe('목적은');
    expect(withParticle('오전 9시', '은/는')).toBe('오전 9시는');
    expect(withParticle('시작일', '이/가')).toBe('시작일이');
    expect(withParticle('모델', '이/가')).toBe('모델이');
    expect(withParticle('서울', '으로/로')).toBe('서울로');
    expect(withParticle('인천공항', '으로/로')).toBe('인천공항으로');
    expect(withParticle('부산', '과/와')).toBe('부산과');
  });

  it('reads digits and looks past closing brackets', () => {
    expect(withParticle('3월 10일 (화)', '은/는')).toBe('3월 10일 (화)는');
    expect(withParticle('3월 1일 (일)', '은/는')).toBe('3월 1일 (일)은');
    expect(withParticle('12', '을/를')).toBe('12를');
    expect(withParticle('2023', '이/가')).toBe('2023이');
  });

  it('keeps both forms when the sound cannot be told (a Latin name)', () => {
    expect(withParticle('Rolls-Royce Ghost', '은/는')).toBe('Rolls-Royce Ghost은(는)');
  });
});
