import { carName, contractDay, partiesSection, contractNumber, contractTime, type ContractDocument, type ContractInput } from './contract';
import { won } from './money';
import { swapArithmetic } from './swap';

/**
 * The 부속 계약서 (annex) of a 차량 교체: what it says, as one pure function of a plain input, laid
 * out by the contract's PDF renderer in the same fonts (as src/domain/extension-annex.ts). Equal
 * input → equal PDF → equal SHA-256 (docs/decisions/swap.md).
 */
export interface SwapAnnexInput {
  swapId: number;
  /** The swap's ordinal for its subscription (1 = the first). */
  ordinal: number;
  requestId: number;
  subscriptionId: number;
  /** When the swap was confirmed: the document's date and its PDF dates. */
  confirmedAt: Date;
  company: ContractInput['company'];
  customer: ContractInput['customer'];
  fromCar: ContractInput['car'];
  toCar: ContractInput['car'];
  term: { months: number; startDate: string; endDate: string };
  swap: {
    swapDate: string; billingMonth: number; firstNewMonth: number; newFeeFrom: string | null; oldFee: number; newFee: number; baseFee: number; optionExtras: number;
    prorateDays: number; monthDays: number; adjustment: number;
    /** The order's 선납금 credit kept in newFee (won a month; 0 or absent: none) through billing month creditLastMonth. */
    prepaymentCredit?: number; creditLastMonth?: number;
  };
}

/** LUXE-S-000123-C01: the contract's number and the swap's ordinal (C: 차량 교체). */
const swapAnnexNumber = (requestId: number, ordinal: number) => `${contractNumber(requestId)}-C${String(ordinal).padStart(2, '0')}`;
export const swapAnnexFileName = (requestId: number, ordinal: number) => `${swapAnnexNumber(requestId, ordinal)}.pdf`;

/** What continues unchanged (printed and tested word for word). */
export const SWAP_ANNEX_CONTINUES = '이 부속 계약서에 정하지 않은 사항(구독 기간과 종료일, 주행거리 플랜, 보험, 운전자, 결제일과 결제 방법, 보증금, 중도 해지와 반납 등)은 원 계약서와 그 계약서에 인용된 이용약관의 조건을 그대로 따릅니다.';

const carLines = (car: ContractInput['car']) => [
  { label: '차량', value: carName(car) },
  { label: '차량 번호', value: car.plate ?? '-' },
  { label: '색상', value: car.colour ?? '-' },
];

export function swapAnnexDocument(input: SwapAnnexInput): ContractDocument {
  const number = swapAnnexNumber(input.requestId, input.ordinal);
  const { company, customer, term: t, swap: s } = input;
  const extras = s.optionExtras === 0 ? '없음' : `${s.optionExtras > 0 ? '+' : '-'}${won(Math.abs(s.optionExtras))}`;
  // The contract font has no U+2212 (−): the annex prints an ASCII minus.
  const arithmetic = swapArithmetic({ new_fee: s.newFee, old_fee: s.oldFee, prorate_days: s.prorateDays, month_days: s.monthDays, adjustment: s.adjustment }).replaceAll('−', '-');
  return {
    title: '자동차 구독 부속 계약서 (차량 교체)',
    subtitle: `부속 계약 번호 ${number} · 원 계약 번호 ${contractNumber(input.requestId)} · 확정일 ${contractTime(input.confirmedAt)}`,
    sections: [
      partiesSection(company, customer),
      { heading: '2. 반납하는 차량', kind: 'lines', lines: carLines(input.fromCar) },
      { heading: '3. 새 차량', kind: 'lines', lines: carLines(input.toCar) },
      {
        heading: '4. 교체 내용',
        kind: 'lines',
        lines: [
          { label: '원 계약 번호', value: contractNumber(input.requestId) },
          { label: '구독 기간', value: `${t.months}개월 (${contractDay(t.startDate)} ~ ${contractDay(t.endDate)}), 변경 없음` },
          { label: '교체일', value: `${contractDay(s.swapDate)} (기존 차량 반납과 새 차량 인도를 같은 날 진행)` },
          { label: '교체 월 일할 계산', value: `${s.billingMonth}개월 차: ${arithmetic}` },
          {
            label: '새 월 구독료',
            value: s.newFeeFrom
              ? `월 ${won(s.newFee)} (새 차량 월 구독료 ${won(s.baseFee)}, 옵션 월 요금 ${extras}${(s.prepaymentCredit ?? 0) > 0 ? `, 선납금 차감 -${won(s.prepaymentCredit ?? 0)}` : ''}), ${s.firstNewMonth}개월 차(${contractDay(s.newFeeFrom)} 결제)부터`
              : `월 ${won(s.newFee)} (남은 결제 월 없음)`,
          },
        ],
      },
      {
        heading: '5. 원 계약의 효력',
        kind: 'text',
        paragraphs: [SWAP_ANNEX_CONTINUES, (s.prepaymentCredit ?? 0) > 0 ? `새 월 구독료에는 선납금 차감 월 ${won(s.prepaymentCredit ?? 0)}이 처음 계약한 기간(${s.creditLastMonth}개월 차)까지 그대로 적용되며, 쿠폰은 적용되지 않습니다.` : '새 월 구독료에는 쿠폰이 적용되지 않습니다.'],
      },
      { heading: '6. 확정', kind: 'lines', lines: [{ label: '확정 일시', value: contractTime(input.confirmedAt) }, { label: '확정 방법', value: '고객이 마이페이지에서 견적을 확인하고 차량 교체를 확정함' }] },
    ],
    footer: `${company.name} · ${number} · 이 부속 계약서는 교체 확정 시점의 내용으로 만들어졌으며 SHA-256 값으로 원본임을 확인할 수 있습니다.`,
    meta: { title: `자동차 구독 부속 계약서 ${number}`, subject: `${carName(input.fromCar)} → ${carName(input.toCar)} 차량 교체`, author: company.name, keywords: [number, `subscription-${input.subscriptionId}`, `swap-${input.swapId}`] },
  };
}
