import { describe, expect, it } from 'vitest';
import { claimedTab } from '../../../src/islands/wallet/coupon-tab';

describe('a coupon registered on the other tab', () => {
  it('moves the wallet to its service and says so', () => {
    expect(claimedTab('BUTLER', 'SUBSCRIBE')).toEqual({ tab: 'BUTLER', note: '의전 서비스에 쓰는 쿠폰이라 의전 탭에 담았습니다.' });
    expect(claimedTab('SUBSCRIBE', 'BUTLER')).toEqual({ tab: 'SUBSCRIBE', note: '구독 서비스에 쓰는 쿠폰이라 구독 탭에 담았습니다.' });
  });
  it('stays when it is the open tab or of no known service', () => {
    expect(claimedTab('BUTLER', 'BUTLER')).toBeNull();
    expect(claimedTab('SUBSCRIBE', 'SUBSCRIBE')).toBeNull();
    expect(claimedTab('ALL', 'SUBSCRIBE')).toBeNull();
  });
});
