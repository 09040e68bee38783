import { describe, expect, it } from 'vitest';
import { RETAINED_RECORDS, RETENTION_INTRO, closureBlockers, closureRefusal, retainedRecordLine, subscriptionOpen, type ClosureFacts } from '../../../src/domain/account-closure';
import { MAX_PASSWORD_LENGTH, newPasswordErrors } from '../../../src/domain/accounts';
import { passwordField } from '../../../src/domain/schemas/accounts';
import { PRIVACY_SEED } from '../../../src/api/seed/content-data';

const today = '2026-12-03';
const sub = (o: Partial<ClosureFacts['subscriptions'][number]> = {}): ClosureFacts['subscriptions'][number] => ({
  isActive: true, endDate: '2026-11-30', billingStatus: 'CANCELLED', deliveriesDone: 1, returnsDone: 1, returnScheduled: false, settlement: 'DONE', ...o,
});
const facts = (o: Partial<ClosureFacts> = {}): ClosureFacts => ({ role: 'user', pendingRequests: 0, subscriptions: [], butlerTripsAhead: 0, pendingPayments: 0, ...o });

describe('retention: one list for the privacy policy and the withdrawal dialog', () => {
  it('the seeded policy prints the intro and every retained record, in order', () => {
    const text = PRIVACY_SEED.content;
    expect(text).toContain(`${RETENTION_INTRO}\n${RETAINED_RECORDS.map(retainedRecordLine).join('\n')}\n\n4.`);
    expect(text).toContain('계약 또는 청약철회 등에 관한 기록: 5년 (전자상거래법)');
    expect(text).toContain('소비자의 불만 또는 분쟁처리에 관한 기록: 3년 (전자상거래법)');
  });
});

describe('subscriptionOpen', () => {
  it('is open while active by date, a car is out, its return is booked, or its settlement is moving money', () => {
    expect(subscriptionOpen(sub(), today)).toBe(false);
    expect(subscriptionOpen(sub({ endDate: today }), today)).toBe(true);
    expect(subscriptionOpen(sub({ endDate: '2027-06-01', isActive: false }), today)).toBe(false);
    expect(subscriptionOpen(sub({ returnsDone: 0 }), today)).toBe(true);
    // A swap: two deliveries, two returns.
    expect(subscriptionOpen(sub({ deliveriesDone: 2, returnsDone: 2 }), today)).toBe(false);
    expect(subscriptionOpen(sub({ deliveriesDone: 2, returnsDone: 1 }), today)).toBe(true);
    expect(subscriptionOpen(sub({ deliveriesDone: 0, returnsDone: 0, returnScheduled: true }), today)).toBe(true);
    expect(subscriptionOpen(sub({ settlement: 'PENDING' }), today)).toBe(true);
    expect(subscriptionOpen(sub({ deliveriesDone: 0, returnsDone: 0, settlement: null }), today)).toBe(false);
  });
});

describe('closureBlockers', () => {
  it('nothing running: none', () => {
    expect(closureBlockers(facts({ subscriptions: [sub()] }), today)).toEqual([]);
  });

  it('lists each thing that must end, with its count and where to end it', () => {
    const got = closureBlockers(facts({ pendingRequests: 2, subscriptions: [sub({ endDate: '2027-01-01', billingStatus: 'PAST_DUE' }), sub()], butlerTripsAhead: 1, pendingPayments: 3 }), today);
    expect(got.map((b) => [b.kind, b.href])).toEqual([
      ['SUBSCRIPTION_REQUEST', '/my/requests'],
      ['SUBSCRIPTION', '/my/subscriptions'],
      ['UNPAID', '/my/subscriptions'],
      ['BUTLER_TRIP', '/my/butler-requests'],
      ['PAYMENT_PENDING', '/my/payments'],
    ]);
    expect(got[0].message).toBe('접수 중인 구독 신청 2건: 구독 신청 내역에서 취소하거나 확정된 뒤 구독을 마쳐주세요.');
    expect(closureRefusal(got.slice(3, 4))).toBe('지금은 탈퇴할 수 없습니다. 먼저 다음을 마쳐주세요. 예정되었거나 진행 중인 의전 1건: 운행이 끝나거나 예약을 취소한 뒤 탈퇴할 수 있습니다.');
  });

  it('an ended subscription left unpaid still blocks; staff and driver accounts always do', () => {
    expect(closureBlockers(facts({ subscriptions: [sub({ billingStatus: 'OVERDUE' })] }), today).map((b) => b.kind)).toEqual(['UNPAID']);
    expect(closureBlockers(facts({ role: 'driver' }), today).map((b) => b.kind)).toEqual(['STAFF_ACCOUNT']);
  });
});

describe('newPasswordErrors: the signup rule, as the API checks it', () => {
  it('agrees with the zod field on short, long and good passwords, and names a mismatch', () => {
    for (const pw of ['', '12345', '123456', 'x'.repeat(MAX_PASSWORD_LENGTH), 'x'.repeat(MAX_PASSWORD_LENGTH + 1)]) {
      const zod = passwordField.safeParse(pw);
      expect(newPasswordErrors(pw, pw).password?.[0]).toBe(zod.success ? undefined : zod.error.issues[0].message);
    }
    expect(newPasswordErrors('12345', '12345').password).toEqual(['비밀번호는 6자 이상이어야 합니다.']);
    expect(newPasswordErrors('good-pass', 'good-pas')).toEqual({ password_confirm: ['비밀번호가 일치하지 않습니다.'] });
    expect(newPasswordErrors('good-pass', 'good-pass')).toEqual({});
  });
});
