import { describe, expect, it } from 'vitest';
import { businessStatusRefusal, booksForCompany, companyAuthorityRefusal, companySubscriptionBillingNote, companySubscriptionCancelLine, lastAdminProblem, managesCompany, needsApproval, samePersonName } from '../../../src/domain/company';
import { businessCheckDigit, validBusinessNumber } from '../../../src/domain/business';

describe('company rules', () => {
  it('only an admin manages; admins and bookers book', () => {
    expect([managesCompany('ADMIN'), managesCompany('BOOKER'), managesCompany('DRIVER')]).toEqual([true, false, false]);
    expect([booksForCompany('ADMIN'), booksForCompany('BOOKER'), booksForCompany('DRIVER')]).toEqual([true, true, false]);
  });

  it("a booker's trip above the threshold waits; at it, without one, or an admin's does not", () => {
    expect(needsApproval('BOOKER', 500_000, 500_001)).toBe(true);
    expect(needsApproval('BOOKER', 500_000, 500_000)).toBe(false);
    expect(needsApproval('BOOKER', null, 9_000_000)).toBe(false);
    expect(needsApproval('ADMIN', 0, 9_000_000)).toBe(false);
  });

  it('refuses 휴업 and 폐업, admits 계속사업자', () => {
    expect(businessStatusRefusal('ACTIVE')).toBeNull();
    expect(businessStatusRefusal('SUSPENDED')).toContain('휴업');
    expect(businessStatusRefusal('CLOSED')).toContain('폐업');
  });

  it('a creator shown to be the 대표자 (or confirmed by staff) acts for the company; a pending one does not', () => {
    expect(companyAuthorityRefusal('CEO')).toBeNull();
    expect(companyAuthorityRefusal('CONFIRMED')).toBeNull();
    expect(companyAuthorityRefusal('PENDING')).toContain('재직증명서 또는 위임장');
    expect(samePersonName('김 대표', '김대표')).toBe(true);
    expect(samePersonName('John Smith', 'JOHN SMITH')).toBe(true);
    expect(samePersonName('김대표', '김대포')).toBe(false);
    expect(samePersonName(' ', '')).toBe(false);
  });

  it('keeps the last admin', () => {
    const two = [{ userId: 1, role: 'ADMIN' as const }, { userId: 2, role: 'BOOKER' as const }];
    expect(lastAdminProblem(two, 1, null)).toContain('마지막 관리자');
    expect(lastAdminProblem(two, 1, 'DRIVER')).toContain('마지막 관리자');
    expect(lastAdminProblem(two, 1, 'ADMIN')).toBeNull();
    expect(lastAdminProblem(two, 2, null)).toBeNull();
    expect(lastAdminProblem([...two, { userId: 3, role: 'ADMIN' }], 1, null)).toBeNull();
  });

  it('the check digit completes a valid number', () => {
    for (const nine of ['123456789', '220810000', '123990000']) expect(validBusinessNumber(`${nine}${businessCheckDigit(nine)}`)).toBe(true);
    expect(validBusinessNumber(`123456789${(businessCheckDigit('123456789') + 1) % 10}`)).toBe(false);
  });
});

describe('where a company subscription is billed (issue 52)', () => {
  it('on 후불 the settlement and overage are on the statement, the deposit taken off it; on a card, the company card', () => {
    expect(companySubscriptionBillingNote('INVOICE')).toBe('월 요금과 반납 정산·초과 주행 요금은 회사 월 청구서로 청구되며, 돌려받을 보증금은 청구서에서 차감됩니다.');
    expect(companySubscriptionBillingNote('CARD')).toBe('월 요금과 반납 정산·초과 주행 요금은 회사 법인카드로 결제되며, 돌려받을 보증금은 법인카드로 환불됩니다.');
  });
});

describe("the admin's cancel of a pending company order (issue 52)", () => {
  it('states the company card refund in full, or that nothing was paid on 후불', () => {
    expect(companySubscriptionCancelLine({ payment: { status: 'PAID', amount: 1_234_000 } as never })).toBe('회사 법인카드로 결제한 첫 결제 금액 1,234,000원을 전액 환불합니다. 취소 후에는 되돌릴 수 없습니다.');
    expect(companySubscriptionCancelLine({ payment: null })).toBe('결제된 금액이 없어 환불할 금액이 없습니다. 취소 후에는 되돌릴 수 없습니다.');
    expect(companySubscriptionCancelLine({ payment: { status: 'FAILED', amount: 1_234_000 } as never })).toBe('결제된 금액이 없어 환불할 금액이 없습니다. 취소 후에는 되돌릴 수 없습니다.');
  });
});
