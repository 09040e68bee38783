import { carName, contractDay, contractNumber, contractTime, partiesSection, type ContractDocument, type ContractInput } from './contract';
import { earlyExitArithmetic, type EarlyExitQuote } from './early-exit';
import { won } from './money';

/**
 * The 중도 해지 확인서 (issue 49): the settlement document of an early exit, laid out by the contract's
 * PDF renderer like the contract and its annexes. One pure function of a plain input: equal input →
 * equal PDF → equal SHA-256. Issued once, on the first download after the exit, and kept unchanged.
 */
export interface ExitDocumentInput {
  requestId: number;
  subscriptionId: number;
  /** When the exit was settled (the fee's payment, or the exit itself when nothing was to pay): the document's date and its PDF dates. */
  settledAt: Date;
  company: ContractInput['company'];
  customer: ContractInput['customer'];
  car: ContractInput['car'];
  term: { months: number; startDate: string; endDate: string };
  quote: Pick<EarlyExitQuote, 'exit_date' | 'exit_month' | 'remaining_months' | 'monthly_fee' | 'percent' | 'fee' | 'fee_parts'>;
  /** The fee's charge (null: nothing remained to charge). */
  payment: { id: string; paidAt: Date | null } | null;
}

/** LUXE-S-000123-X01: the contract's number and X (중도 해지); one per subscription. */
const exitDocumentNumber = (requestId: number) => `${contractNumber(requestId)}-X01`;
export const exitDocumentFileName = (requestId: number) => `${exitDocumentNumber(requestId)}.pdf`;

/** What the exit leaves (printed and tested word for word). */
const EXIT_DOCUMENT_AFTER = '반납일에 차량을 반납하면 반납 정산(초과 주행 요금, 손상 수리비, 연료·충전 부족분, 보증금 환불)을 별도로 진행하며, 정산 결과는 마이페이지의 내 구독에서 확인할 수 있습니다. 반납일 이후의 월 구독료 결제는 모두 취소되었습니다.';

export function exitDocument(input: ExitDocumentInput): ContractDocument {
  const number = exitDocumentNumber(input.requestId);
  const { company, customer, car, term: t, quote: q } = input;
  const name = carName(car);
  return {
    title: '자동차 구독 중도 해지 확인서',
    subtitle: `확인서 번호 ${number} · 원 계약 번호 ${contractNumber(input.requestId)} · 확정일 ${contractTime(input.settledAt)}`,
    sections: [
      partiesSection(company, customer),
      {
        heading: '2. 해지한 구독',
        kind: 'lines',
        lines: [
          { label: '원 계약 번호', value: contractNumber(input.requestId) },
          { label: '차량', value: `${name}${car.plate ? ` (${car.plate})` : ''}` },
          { label: '계약 기간', value: `${t.months}개월 (${contractDay(t.startDate)} ~ ${contractDay(t.endDate)})` },
        ],
      },
      {
        heading: '3. 중도 해지 내용',
        kind: 'lines',
        lines: [
          { label: '반납일 (구독 종료일)', value: contractDay(q.exit_date) },
          { label: '반납일이 속한 결제 월', value: `${q.exit_month}개월 차` },
          { label: '남은 개월 수', value: `${q.remaining_months}개월` },
          { label: '중도 해지 수수료', value: q.fee ? earlyExitArithmetic(q) : '없음 (남은 결제 월 없음)' },
          { label: '결제', value: input.payment ? `${won(q.fee)} 등록 카드 결제${input.payment.paidAt ? ` (${contractTime(input.payment.paidAt)})` : ''} · 결제 번호 ${input.payment.id}` : '결제할 금액 없음' },
        ],
      },
      { heading: '4. 이후 절차', kind: 'text', paragraphs: [EXIT_DOCUMENT_AFTER] },
      { heading: '5. 확정', kind: 'lines', lines: [{ label: '확정 일시', value: contractTime(input.settledAt) }, { label: '확정 방법', value: '고객이 마이페이지에서 반납일과 수수료를 확인하고 중도 해지를 확정함' }] },
    ],
    footer: `${company.name} · ${number} · 이 확인서의 SHA-256 값은 다운로드 응답(X-Content-SHA256)으로 함께 제공되며, 내려받은 파일의 값과 같으면 원본입니다.`,
    meta: { title: `자동차 구독 중도 해지 확인서 ${number}`, subject: `${name} 중도 해지`, author: company.name, keywords: [number, `subscription-${input.subscriptionId}`, 'early-exit'] },
  };
}
