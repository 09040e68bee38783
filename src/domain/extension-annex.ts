import { carName, contractDay, partiesSection, contractNumber, contractTime, type ContractDocument, type ContractInput } from './contract';
import { won } from './money';

/**
 * The 부속 계약서 (annex) of a 구독 연장: what it says, as one pure function of a plain input, laid
 * out by the contract's PDF renderer (src/api/orders/contract-pdf.ts) in the same fonts. Equal input →
 * equal PDF → equal SHA-256 (docs/decisions/extension.md).
 */
export interface AnnexInput {
  extensionId: number;
  /** The extension's ordinal for its subscription (1 = the first). */
  ordinal: number;
  requestId: number;
  subscriptionId: number;
  /** When the extension was confirmed: the document's date and its PDF dates. */
  confirmedAt: Date;
  company: ContractInput['company'];
  customer: ContractInput['customer'];
  car: ContractInput['car'];
  original: { months: number; startDate: string; endDate: string; monthlyFee: number };
  /** The end date before this extension (the original's, or an earlier extension's). */
  previousEndDate: string;
  extension: { months: number; fromDate: string; newEndDate: string; baseFee: number; optionExtras: number; monthlyFee: number; firstMonth: number; lastMonth: number };
}

/** LUXE-S-000123-E01: the contract's number and the extension's ordinal. */
export const annexNumber = (requestId: number, ordinal: number) => `${contractNumber(requestId)}-E${String(ordinal).padStart(2, '0')}`;
export const annexFileName = (requestId: number, ordinal: number) => `${annexNumber(requestId, ordinal)}.pdf`;

/** The statement that the original contract continues (printed and tested word for word). */
export const ANNEX_CONTINUES = '이 부속 계약서에 정하지 않은 사항(주행거리, 보험, 운전자, 결제 방법, 중도 해지와 반납 등)은 원 계약서와 그 계약서에 인용된 이용약관의 조건을 그대로 따릅니다.';

export function annexDocument(input: AnnexInput): ContractDocument {
  const number = annexNumber(input.requestId, input.ordinal);
  const { company, customer, car, original: o, extension: e } = input;
  const name = carName(car);
  const extras = e.optionExtras === 0 ? '없음' : `${e.optionExtras > 0 ? '+' : '-'}${won(Math.abs(e.optionExtras))}`;
  return {
    title: '자동차 구독 부속 계약서 (기간 연장)',
    subtitle: `부속 계약 번호 ${number} · 원 계약 번호 ${contractNumber(input.requestId)} · 확정일 ${contractTime(input.confirmedAt)}`,
    sections: [
      partiesSection(company, customer),
      {
        heading: '2. 차량',
        kind: 'lines',
        lines: [
          { label: '차량', value: name },
          { label: '차량 번호', value: car.plate ?? '-' },
          { label: '색상', value: car.colour ?? '-' },
        ],
      },
      {
        heading: '3. 원 계약',
        kind: 'lines',
        lines: [
          { label: '원 계약 번호', value: contractNumber(input.requestId) },
          { label: '기간', value: `${o.months}개월 (${contractDay(o.startDate)} ~ ${contractDay(o.endDate)})` },
          { label: '월 구독료', value: won(o.monthlyFee) },
          { label: '연장 전 종료일', value: contractDay(input.previousEndDate) },
        ],
      },
      {
        heading: '4. 연장 내용',
        kind: 'lines',
        lines: [
          { label: '연장 기간', value: `${e.months}개월 (${contractDay(e.fromDate)} ~ ${contractDay(e.newEndDate)})` },
          { label: '새 종료일', value: contractDay(e.newEndDate) },
          { label: '연장 월 구독료', value: `월 ${won(e.monthlyFee)} (${e.months}개월 기간 월 구독료 ${won(e.baseFee)}, 옵션 월 요금 ${extras})` },
          { label: '적용 결제 월', value: `${e.firstMonth}개월 차부터 ${e.lastMonth}개월 차까지 (구독 시작일과 같은 날짜, 그 달에 없으면 말일에 결제)` },
          { label: '연장 기간 총액', value: won(e.monthlyFee * e.months) },
        ],
      },
      {
        heading: '5. 원 계약의 효력',
        kind: 'text',
        paragraphs: [ANNEX_CONTINUES, '연장 기간의 월 구독료에는 쿠폰과 선납금 차감이 적용되지 않으며, 원 계약의 보증금은 연장 기간이 끝나 차량을 반납한 뒤 정산합니다.'],
      },
      { heading: '6. 확정', kind: 'lines', lines: [{ label: '확정 일시', value: contractTime(input.confirmedAt) }, { label: '확정 방법', value: '고객이 마이페이지에서 견적을 확인하고 연장을 확정함' }] },
    ],
    footer: `${company.name} · ${number} · 이 부속 계약서는 연장 확정 시점의 내용으로 만들어졌으며 SHA-256 값으로 원본임을 확인할 수 있습니다.`,
    meta: { title: `자동차 구독 부속 계약서 ${number}`, subject: `${name} ${e.months}개월 연장`, author: company.name, keywords: [number, `subscription-${input.subscriptionId}`, `extension-${input.extensionId}`] },
  };
}
