import { describe, expect, it } from 'vitest';
import { withoutParticle, withParticle } from '../../../src/domain/korean';

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

  it('reads Latin names as Koreans say them: a capital by its letter name, a word by its usual Korean spelling', () => {
    // Issue 49: "911 Carrera S을", "Mercedes Benz G-Class은(는)".
    expect(withParticle('911 Carrera S', '을/를')).toBe('911 Carrera S를');
    expect(withParticle('Mercedes Benz G-Class', '은/는')).toBe('Mercedes Benz G-Class는');
    expect(withParticle('Rolls-Royce Ghost', '은/는')).toBe('Rolls-Royce Ghost는');
    expect(withParticle('Ferrari Roma', '이/가')).toBe('Ferrari Roma가');
    expect(withParticle('Porsche Taycan', '을/를')).toBe('Porsche Taycan을');
    expect(withParticle('Porsche Cayenne', '과/와')).toBe('Porsche Cayenne과');
    expect(withParticle('Rolls-Royce Phantom', '으로/로')).toBe('Rolls-Royce Phantom으로');
    expect(withParticle('Bentley Continental', '으로/로')).toBe('Bentley Continental로');
    expect(withParticle('Bentley Continental GT', '을/를')).toBe('Bentley Continental GT를');
    expect(withParticle('Mercedes-AMG', '이/가')).toBe('Mercedes-AMG가');
    expect(withParticle('Ferrari SF90 Stradale', '을/를')).toBe('Ferrari SF90 Stradale를');
    expect(withParticle('BMW M5', '은/는')).toBe('BMW M5는');
    expect(withParticle('BMW X7', '으로/로')).toBe('BMW X7로');
    expect(withParticle('Maserati MC20', '이/가')).toBe('Maserati MC20이');
    expect(withParticle('Range Rover', '을/를')).toBe('Range Rover를');
    expect(withParticle('Black', '이/가')).toBe('Black이');
    expect(withParticle('MR', '으로/로')).toBe('MR로');
  });

  it('keeps both forms when nothing tells the sound (a symbol)', () => {
    expect(withParticle('★', '은/는')).toBe('★은(는)');
  });
});

describe('withoutParticle: a particle taken off only where the sound before it takes it', () => {
  it('drops 을/를 and 으로/로 that agree with the last sound', () => {
    expect(withoutParticle('코엑스를', '을/를')).toBe('코엑스');
    expect(withoutParticle('분당서울대병원을', '을/를')).toBe('분당서울대병원');
    expect(withoutParticle('잠실역으로', '으로/로')).toBe('잠실역');
    expect(withoutParticle('판교로', '으로/로')).toBe('판교');
    expect(withoutParticle('서울로', '으로/로')).toBe('서울');
  });

  it('keeps a syllable the particle would not follow, and a word that is only the particle', () => {
    expect(withoutParticle('한옥마을', '을/를')).toBe('한옥마을');
    expect(withoutParticle('을', '을/를')).toBe('을');
    expect(withoutParticle('하늘', '을/를')).toBe('하늘');
  });
});
