import { describe, expect, it } from 'vitest';
import { distanceMeters, etaMinutes, etaText, landmarkOfAddress, landmarkText, nearestLandmark } from '../../../src/domain/live-trip';

const seoulStation = { lat: 37.5547, lng: 126.9707 };

describe('the live trip position in words', () => {
  it('measures distance on the earth (서울역 → 시청 is about 1.3 km)', () => {
    expect(distanceMeters(seoulStation, { lat: 37.5663, lng: 126.9779 })).toBeGreaterThan(1_300);
    expect(distanceMeters(seoulStation, { lat: 37.5663, lng: 126.9779 })).toBeLessThan(1_500);
    expect(distanceMeters(seoulStation, seoulStation)).toBe(0);
  });

  it('names the nearest landmark within 3 km, and none farther', () => {
    expect(landmarkText(seoulStation)).toBe('서울역 앞');
    expect(landmarkText({ lat: 37.5585, lng: 126.9707 })).toBe('서울역 근처 (약 400m)');
    expect(landmarkText({ lat: 37.5116 + 0.0135, lng: 127.0595 + 0.02 })).toMatch(/근처 \(약 [\d.]+km\)$/);
    expect(nearestLandmark({ lat: 35.1796, lng: 129.0756 })).toBeNull(); // 부산
    expect(landmarkText({ lat: 35.1796, lng: 129.0756 })).toBeNull();
  });

  it('recognises a pickup address by a landmark it names, spacing and case aside', () => {
    expect(landmarkOfAddress('인천국제공항 제2여객터미널 3층 출국장')).toEqual({ lat: 37.4686, lng: 126.433 });
    expect(landmarkOfAddress('인천공항T1 도착층')).toEqual({ lat: 37.4492, lng: 126.451 });
    expect(landmarkOfAddress('서울 강남구 영동대로 513 coex')).toEqual({ lat: 37.5116, lng: 127.0595 });
    expect(landmarkOfAddress('서울 강남구 테헤란로 152')).toBeNull();
  });

  it('estimates the drive: city speed first, expressway speed beyond 10 km', () => {
    expect(etaMinutes(seoulStation, seoulStation)).toBe(1);
    // 서울역 → 시청: 1.4 km × 1.3 at 25 km/h ≈ 4 min.
    expect(etaMinutes(seoulStation, { lat: 37.5663, lng: 126.9779 })).toBe(4);
    // 서울역 → 인천공항 T1 (≈ 46 km × 1.3): 10 km in town, the rest on the expressway.
    const toAirport = etaMinutes(seoulStation, { lat: 37.4492, lng: 126.451 });
    expect(toAirport).toBeGreaterThan(60);
    expect(toAirport).toBeLessThan(90);
    expect(etaText(25)).toBe('픽업 장소까지 약 25분 (교통 상황에 따라 달라질 수 있습니다)');
    expect(etaText(70)).toBe('픽업 장소까지 약 1시간 10분 (교통 상황에 따라 달라질 수 있습니다)');
    expect(etaText(60)).toBe('픽업 장소까지 약 1시간 (교통 상황에 따라 달라질 수 있습니다)');
  });
});
