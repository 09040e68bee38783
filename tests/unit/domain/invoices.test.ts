import { describe, expect, it } from 'vitest';
import { APPROVAL_NUMBER, creditStatementNote, invoiceDueDate, isOverdue, monthLabel, monthLastDay, nextMonth, overdueBookingMessage, previousMonth, statementStatusLabel, taxInvoiceDeadline } from '../../../src/domain/invoices';
import { sumVat, splitVat } from '../../../src/domain/vat';

describe('statement months and days', () => {
  it('counts months across the year end', () => {
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(previousMonth('2027-01')).toBe('2026-12');
    expect(monthLabel('2026-03')).toBe('2026년 3월');
  });

  it('is due on the operator day of the next month, and the tax invoice by its 10th (부가가치세법 제34조③)', () => {
    expect(invoiceDueDate('2026-11', 25)).toBe('2026-12-25');
    expect(invoiceDueDate('2027-01', 28)).toBe('2027-02-28');
    expect(taxInvoiceDeadline('2026-12')).toBe('2027-01-11'); // 2027-01-10 is a Sunday
    expect(taxInvoiceDeadline('2026-11')).toBe('2026-12-10'); // a Thursday
    expect(taxInvoiceDeadline('2026-09')).toBe('2026-10-12'); // the 10th a Saturday: Monday
    expect(monthLastDay('2028-02')).toBe('2028-02-29');
    expect(monthLastDay('2026-11')).toBe('2026-11-30');
  });

  it('is overdue only unpaid, owing something, after its due day', () => {
    const s = { status: 'ISSUED' as const, total: 100, due_date: '2026-12-25' };
    expect(isOverdue(s, '2026-12-25')).toBe(false);
    expect(isOverdue(s, '2026-12-26')).toBe(true);
    expect(isOverdue({ ...s, status: 'PAID' }, '2027-01-01')).toBe(false);
    expect(isOverdue({ ...s, total: 0 }, '2027-01-01')).toBe(false);
    expect(overdueBookingMessage('2026-11', '2026-12-25', 1_900_000)).toBe(
      '2026년 11월 청구서(1,900,000원)가 납부 기한(2026-12-25)을 지나 미납 상태입니다. 납부가 확인될 때까지 회사 명의의 새 예약을 할 수 없습니다. 회사 관리자에게 문의하거나 고객센터로 연락해주세요.',
    );
  });

  it('knows the 승인번호 shape', () => {
    expect(APPROVAL_NUMBER.test('20261130-41000000-00000001')).toBe(true);
    expect(APPROVAL_NUMBER.test('2026113041000000000000001')).toBe(false);
  });
});

describe('a statement whose credits exceed its charges', () => {
  it('reads as owed back, paid back once staff record it, and says what it is made of', () => {
    expect(statementStatusLabel('ISSUED', 1_000)).toBe('납부 대기');
    expect(statementStatusLabel('PAID', 0)).toBe('납부 완료');
    expect(statementStatusLabel('ISSUED', -200_000)).toBe('환급 예정');
    expect(statementStatusLabel('PAID', -200_000)).toBe('환급 완료');
    const sums = sumVat([splitVat(300_000), splitVat(-500_000)]);
    expect(creditStatementNote(sums)).toBe(
      '이번 달은 환불·반환 금액이 이용 금액보다 많아 납부하실 금액이 없습니다. 200,000원(공급가액 181,818원 + 부가세 18,182원)을 회사 계좌로 돌려드립니다. 환불·반환분은 처음 발행한 세금계산서의 수정세금계산서로 발행됩니다.',
    );
    expect(isOverdue({ status: 'ISSUED', total: -200_000, due_date: '2034-08-25' }, '2034-09-01')).toBe(false);
  });
});
