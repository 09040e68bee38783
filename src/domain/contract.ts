import { formatPhone } from './accounts';
import { dotDate, formatKoreaDateTime } from './dates';
import type { BusinessInfo } from './business';
import { formatNumber, won } from './money';
import { firstPaymentLines, type FirstPaymentParts } from './payments';

/**
 * The subscription contract (계약서, issue 38): what it says, as one pure function of a plain typed
 * input. The server assembles the input from the order, its car, its customer, the site's company
 * details and the terms in force on the order's day (src/api/orders/contracts.ts); the PDF renderer
 * (src/api/orders/contract-pdf.ts) only lays out what this returns. Equal input → equal document →
 * equal PDF bytes → equal SHA-256 (docs/decisions/contract.md).
 */

/** One labelled line: `{label, value}`. Options of the order (mileage plan, drivers, 탁송, …) come as these. */
interface ContractLine {
  label: string;
  value: string;
}

export interface ContractInput {
  /** The subscription request the contract belongs to (신청 번호). */
  requestId: number;
  /** When the order was placed: the document's date, its PDF dates and its consent time. */
  orderedAt: Date;
  /** The seller's identity (전자상거래법 제13조 ①: 상호, 대표자, 주소, 전화, 이메일, 사업자등록번호, 통신판매업 신고번호). */
  company: BusinessInfo;
  customer: { name: string; phone: string | null; email: string | null };
  /**
   * 법인 장기 구독: the company that subscribes and pays (상호, 사업자등록번호 as 123-45-67891, 대표자,
   * 사업장 주소), the member who placed the order for it, and how it pays; `customer` is then the
   * named driver. Absent for a private order.
   */
  subscriber?: ContractSubscriber;
  car: { brand: string; model: string; subModel: string | null; trim: string | null; plate: string | null; colour: string | null };
  /** Months. */
  term: number;
  /** The requested first and last day (YYYY-MM-DD); the last is start + term - 1 day. */
  startDate: string;
  endDate: string;
  /** Options chosen with the order and their prices (mileage plan, drivers, 탁송, 보증금, 선납금, 자기부담금, the monthly fee with them). */
  options: ContractLine[];
  /**
   * Won, as billing charges them: the first payment is the order's quote (the parts /my/payments,
   * the receipt and the email name: firstPaymentLines), each later month the fee billing reads for
   * it (feeOfMonth: the order's fee, the 선납금 credit already taken off).
   */
  amounts: {
    /** The first payment's parts: 첫 달 구독료 (after the 선납금 credit), coupon, points, 탁송비, 보증금, 선납금 and what was charged. */
    first: FirstPaymentParts;
    couponName: string | null;
    /** The 선납금's monthly credit (0 = none), taken off every month of the order's term. */
    prepaymentCredit: number;
    /** Months 2…n: what each is charged, in order (monthFee / feeOfMonth). */
    laterMonthFees: readonly number[];
  };
  /** Included km a month and the per-km charge beyond it (null: "차량별 안내 금액"). */
  mileage: { monthlyKm: number; overagePerKm: number | null };
  /** The cover, its limits (대인·대물·자기신체·자기차량: INSURANCE_LIMITS) and the order's 자기부담금 per accident. */
  insurance: { cover: string; limits: readonly ContractLine[]; deductible: number | null };
  /** How the car reaches the customer, as labelled lines: lounge pickup, or 탁송 with its address, day, window and fee. */
  delivery: readonly ContractLine[];
  /** Articles of the terms, quoted word for word: `{title, text}` (e.g. 제5조 (신청 취소와 해지)). */
  rules: { source: string; articles: { title: string; text: string }[] };
  /** The consents of the order page, each as given or refused at `orderedAt` by `customer`. */
  consents: readonly ContractConsent[];
  /** Whether the customer's name was confirmed by 본인인증 (CI) when the order was placed. */
  identityVerified?: boolean;
}

export type ContractSection =
  | { heading: string; kind: 'lines'; lines: ContractLine[] }
  | { heading: string; kind: 'text'; paragraphs: string[] };

export interface ContractDocument {
  title: string;
  /** Shown under the title: 계약 번호 and the date. */
  subtitle: string;
  sections: ContractSection[];
  /** The closing line at the foot of the last page. */
  footer: string;
  /** PDF metadata. */
  meta: { title: string; subject: string; author: string; keywords: string[] };
}

/** 2026.12.03 (a YYYY-MM-DD day as people read it). */
export const contractDay = dotDate;

/** 2026.12.03 14:30 in Korean time (the one Korean date-time format, src/domain/dates). */
export const contractTime = (at: Date): string => formatKoreaDateTime(at);

/** The contract's number as printed and as its file is named: LUXE-S-000123. */
export const contractNumber = (requestId: number) => `LUXE-S-${String(requestId).padStart(6, '0')}`;

/** Whether a request has a contract to download: its first month paid (or nothing was to pay). The server decides; this only hides the button before. */
export function hasContract(r: { final_fee: number; payment: { status: string } | null }): boolean {
  return r.payment ? r.payment.status !== 'PENDING' && r.payment.status !== 'FAILED' : r.final_fee === 0;
}

/** The company that is a company order's party (ContractInput.subscriber). */
export interface ContractSubscriber {
  name: string;
  businessNumber: string;
  ceo: string;
  address: string;
  orderedBy: string;
  billing: 'CARD' | 'INVOICE';
}

/** The download's file name (ASCII, so every browser keeps it). */
export const contractFileName = (requestId: number) => `${contractNumber(requestId)}.pdf`;

/**
 * Section 1 of the contract and of every annex: the company (with its 대표자, 사업자등록번호 and
 * 통신판매업 신고번호: 전자상거래법 제13조 ①) and the customer, phones formatted (formatPhone).
 */
export const partiesSection = (company: ContractInput['company'], customer: ContractInput['customer'], subscriber?: ContractSubscriber): ContractSection => ({
  heading: '1. 계약 당사자',
  kind: 'lines',
  lines: [
    { label: '회사', value: company.name },
    { label: '대표자', value: company.ceo },
    { label: '사업자등록번호', value: company.businessNumber },
    { label: '통신판매업 신고번호', value: company.mailOrderNumber },
    { label: '회사 주소', value: company.address },
    { label: '회사 연락처', value: `${formatPhone(company.phone)} · ${company.email}` },
    // A company order: the company is the subscriber (계약자) and pays; the member named is its driver.
    ...(subscriber
      ? [
          { label: '계약자 (법인)', value: subscriber.name },
          { label: '계약자 대표자', value: subscriber.ceo },
          { label: '계약자 사업자등록번호', value: subscriber.businessNumber },
          { label: '계약자 사업장 주소', value: subscriber.address },
          { label: '운전자', value: customer.name },
          { label: '운전자 휴대전화', value: customer.phone ? formatPhone(customer.phone) : '-' },
          { label: '운전자 이메일', value: customer.email ?? '-' },
        ]
      : [
          { label: '고객', value: customer.name },
          { label: '고객 휴대전화', value: customer.phone ? formatPhone(customer.phone) : '-' },
          { label: '고객 이메일', value: customer.email ?? '-' },
        ]),
  ],
});

export const carName = (c: ContractInput['car']) => [c.brand, c.model, c.subModel, c.trim].filter((p) => p && p.trim()).join(' ');

/**
 * Where the customer checks a document's SHA-256 (a PDF cannot hold its own hash): the request's
 * page on /my shows it next to the download, and the API answers it in X-Content-SHA256 and at
 * …/contract/sha256 (docs/decisions/legal.md §3).
 */
const CONTRACT_HASH_NOTE = '이 문서의 SHA-256 값은 마이페이지의 구독 신청 상세 화면(계약서 항목)에 표시되며, 내려받은 파일의 SHA-256 값과 같으면 원본입니다.';

/**
 * 11. 계약 체결 (전자 서명): who agreed, when and how: the customer's electronic consent on the order
 * page (no handwritten signature) and the company's issue of the document (its SHA-256 shown beside it).
 */
function signatureSection(input: Pick<ContractInput, 'customer' | 'company' | 'orderedAt' | 'identityVerified' | 'subscriber'>): ContractSection {
  const sub = input.subscriber;
  return {
    heading: '11. 계약 체결 (전자 서명)',
    kind: 'lines',
    lines: [
      sub
        ? { label: '계약자 (동의자)', value: `${sub.name} (신청 담당자 ${sub.orderedBy})` }
        : { label: '고객 (동의자)', value: `${input.customer.name}${input.identityVerified ? ' (본인인증 완료)' : ''}` },
      {
        label: '동의 방법',
        value: sub
          ? `구독 신청 화면에서 회사 관리자가 필수 동의 항목을 각각 확인하고 [신청하기]를 눌러 전자적으로 동의함 (결제: ${sub.billing === 'INVOICE' ? '회사 월 청구서 후불' : '회사 결제 카드'})`
          : '구독 신청 화면에서 필수 동의 항목을 각각 확인하고 [신청하기]를 눌러 전자적으로 동의하고, 정기결제 카드를 등록함',
      },
      { label: '동의 일시', value: contractTime(input.orderedAt) },
      { label: '회사', value: `${input.company.name} 대표자 ${input.company.ceo} (전자 문서로 발행)` },
    ],
  };
}

/** Runs of equal fees: [{fee, from, count}] (months numbered from `first`). */
function feeRuns(fees: readonly number[], first: number): { fee: number; from: number; count: number }[] {
  const runs: { fee: number; from: number; count: number }[] = [];
  fees.forEach((fee, i) => {
    const last = runs.at(-1);
    if (last && last.fee === fee) last.count++;
    else runs.push({ fee, from: first + i, count: 1 });
  });
  return runs;
}

/** "a + b - c = d": a payment's parts as one formula (the lines of firstPaymentLines, 합계 last). */
function formula(lines: readonly { label: string; amount: number }[]): string {
  const parts = lines.slice(0, -1);
  const total = lines.at(-1)!;
  return `${parts.map((l, i) => `${i === 0 ? '' : l.amount < 0 ? ' - ' : ' + '}${l.label} ${won(Math.abs(l.amount))}`).join('')} = ${won(total.amount)}`;
}

/**
 * 5. 요금: the fee, the 선납금 credit, the first payment by its parts, each later month, the
 * refundable 보증금, and ONE total of what the term charges (the 보증금 in it, named).
 */
function feeLines(a: ContractInput['amounts'], term: number): ContractLine[] {
  const f = a.first;
  const credit = a.prepaymentCredit;
  const firstLines = firstPaymentLines(f).map((l) =>
    l.label === '쿠폰 할인' && a.couponName ? { ...l, label: `쿠폰 할인 (${a.couponName})` } : l.label === '첫 달 구독료' && credit > 0 ? { ...l, label: '첫 달 구독료 (선납금 차감 후)' } : l,
  );
  const later = a.laterMonthFees.reduce((sum, fee) => sum + fee, 0);
  const runs = feeRuns(a.laterMonthFees, 2);
  const creditNote = (fee: number) => (credit > 0 ? ` (월 구독료 ${won(fee + credit)} - 선납금 차감 ${won(credit)})` : '');
  const lines: ContractLine[] = [
    { label: '월 구독료', value: `${won(f.monthly + credit)}${credit > 0 ? ' (옵션 포함, 선납금 차감 전)' : ''}` },
  ];
  if (credit > 0) lines.push({ label: '선납금 차감', value: `매월 -${won(credit)} (선납금 ${won(f.prepayment)} / ${term}개월, 1개월 차부터 ${term}개월 차까지)` });
  lines.push(
    { label: '쿠폰 할인', value: f.coupon_discount ? `-${won(f.coupon_discount)}${a.couponName ? ` (${a.couponName})` : ''} (첫 달)` : '없음' },
    { label: '포인트 사용', value: f.points ? `-${won(f.points)} (첫 달)` : '없음' },
    { label: '첫 결제 금액 (신청 시)', value: won(f.paid_today) },
    { label: '첫 결제 내역', value: formula(firstLines) },
    {
      label: '2개월 차부터',
      value: runs.length
        ? `${runs.map((r) => `${runs.length > 1 ? `${r.from}~${r.from + r.count - 1}개월 차 ` : ''}매월 ${won(r.fee)}${creditNote(r.fee)} × ${r.count}회`).join(', ')} (시작일과 같은 날짜, 그 달에 없으면 말일)`
        : '없음',
    },
    { label: '보증금', value: f.deposit ? `${won(f.deposit)} (첫 결제에 포함, 반납 정산 후 남은 금액 환불)` : '없음' },
    {
      label: '계약 기간 총 결제 금액',
      value: `${won(f.paid_today + later)} (첫 결제 ${won(f.paid_today)}${later ? ` + 2개월 차부터 ${won(later)}` : ''}${f.deposit ? `, 환불되는 보증금 ${won(f.deposit)} 포함` : ''})`,
    },
  );
  return lines;
}

/** The document of a contract: sections of labelled lines and quoted text, in reading order. */
export function contractDocument(input: ContractInput): ContractDocument {
  const { amounts: a, car, customer, company } = input;
  const number = contractNumber(input.requestId);
  const name = carName(car);
  const sections: ContractSection[] = [
    partiesSection(company, customer, input.subscriber),
    {
      heading: '2. 차량',
      kind: 'lines',
      lines: [
        { label: '차량', value: name },
        { label: '차량 번호', value: car.plate ?? '출고 시 안내' },
        { label: '색상', value: car.colour ?? '-' },
      ],
    },
    {
      heading: '3. 구독 기간',
      kind: 'lines',
      lines: [
        { label: '기간', value: `${input.term}개월` },
        { label: '시작일 (신청)', value: contractDay(input.startDate) },
        { label: '종료일 (신청)', value: contractDay(input.endDate) },
        { label: '비고', value: '시작일과 종료일은 회사가 구독을 확정할 때 확정 안내로 최종 결정됩니다.' },
      ],
    },
    {
      heading: '4. 선택 옵션',
      kind: 'lines',
      lines: input.options.length ? input.options : [{ label: '옵션', value: '선택한 옵션 없음' }],
    },
    { heading: '5. 요금', kind: 'lines', lines: feeLines(a, input.term) },
    {
      heading: '6. 주행거리',
      kind: 'lines',
      lines: [
        { label: '약정 주행거리', value: `월 ${formatNumber(input.mileage.monthlyKm)}km` },
        { label: '초과 주행 요금', value: input.mileage.overagePerKm !== null ? `초과 1km당 ${won(input.mileage.overagePerKm)}` : '초과 1km당 차량별로 안내된 금액' },
      ],
    },
    {
      heading: '7. 보험',
      kind: 'lines',
      lines: [
        { label: '보험', value: input.insurance.cover },
        ...input.insurance.limits,
        { label: '자기부담금', value: input.insurance.deductible !== null ? `사고 1건당 ${won(input.insurance.deductible)} (자기차량손해·대물 사고 시 고객 부담 한도)` : '사고 1건당 차량별로 안내된 금액' },
      ],
    },
    { heading: '8. 인도', kind: 'lines', lines: [...input.delivery] },
    {
      heading: `9. 취소와 해지 (${input.rules.source})`,
      kind: 'text',
      paragraphs: input.rules.articles.flatMap((r) => [r.title, ...r.text.split('\n').filter((l) => l.trim())]),
    },
    {
      heading: '10. 동의',
      kind: 'lines',
      lines: [
        { label: '동의 일시', value: contractTime(input.orderedAt) },
        ...input.consents.map((c) => ({ label: `[${c.optional ? '선택' : '필수'}] ${c.given ? '동의' : '동의하지 않음'}`, value: c.title })),
      ],
    },
    signatureSection(input),
  ];
  return {
    title: '자동차 구독 계약서',
    subtitle: `계약 번호 ${number} · 신청일 ${contractTime(input.orderedAt)}`,
    sections,
    footer: `${company.name} · ${number} · ${CONTRACT_HASH_NOTE}`,
    meta: { title: `자동차 구독 계약서 ${number}`, subject: `${name} ${input.term}개월 구독`, author: company.name, keywords: [number, `request-${input.requestId}`] },
  };
}

/**
 * Articles of a policy text whose title line passes `pick` (e.g. /취소|해지/): each `{title, text}`
 * word for word, the title line (제5조 (신청 취소와 해지)) and its lines up to the next article or 부칙.
 */
export function policyArticles(content: string, pick: (title: string) => boolean): { title: string; text: string }[] {
  const lines = content.split('\n');
  const out: { title: string; text: string }[] = [];
  lines.forEach((line, start) => {
    if (!/^\s*제\d+조/.test(line) || !pick(line.trim())) return;
    let end = start + 1;
    while (end < lines.length && !/^\s*(제\d+조|부칙)/.test(lines[end])) end++;
    out.push({ title: line.trim(), text: lines.slice(start + 1, end).join('\n').trim() });
  });
  return out;
}

/** The terms' articles a contract quotes: how an order is made and paid, cancelled and ended. */
export const CONTRACT_ARTICLES = /계약|취소|해지|요금|결제/;

/** The order page's 7 consents, in the spec's order (the contract lists them with their time). */
export const ORDER_CONSENTS = [
  '정기결제 동의',
  '자동차 구독 서비스 이용약관 동의',
  '반납 평가 기준 동의',
  '위치정보 이용약관 동의',
  '전자금융거래 기본약관 동의',
  '개인신용정보 수집·이용 동의',
  '개인신용정보 제공 동의',
] as const;
export type OrderConsent = (typeof ORDER_CONSENTS)[number];

/**
 * The consent that may be refused without losing the subscription (docs/decisions/legal.md §6): the
 * car's 위치정보 serves 탁송, 긴급 지원 and 도난 대응, none of which the contract needs. The others are
 * the contract, its payment and the credit check of a months-long rental.
 */
export const OPTIONAL_ORDER_CONSENT: OrderConsent = '위치정보 이용약관 동의';
export const isOptionalConsent = (c: OrderConsent) => c === OPTIONAL_ORDER_CONSENT;

/** Whether every required consent of the page's boxes (in ORDER_CONSENTS order) is given. */
export const requiredConsentsGiven = (checked: readonly boolean[]) => ORDER_CONSENTS.every((c, i) => isOptionalConsent(c) || checked[i]);

/** One consent as the contract states it. */
export interface ContractConsent {
  title: OrderConsent;
  optional: boolean;
  given: boolean;
}

/** The consents of an order: the required ones given, the optional one as chosen (null: an order before it was optional, when all were required). */
export const orderConsents = (locationConsent: boolean | null): ContractConsent[] =>
  ORDER_CONSENTS.map((title) => ({ title, optional: isOptionalConsent(title), given: isOptionalConsent(title) ? locationConsent !== false : true }));

/**
 * The cover of every subscription car's 종합보험 (the company's fleet policy), printed in the
 * contract's 보험 section; the 자기부담금 is the car's (its option prices). Values to be confirmed
 * against the fleet policy (docs/decisions/legal.md §3).
 */
const INSURANCE_LIMITS: readonly ContractLine[] = [
  { label: '대인배상', value: '무한 (대인배상 I·II)' },
  { label: '대물배상', value: '1사고당 2억원 한도' },
  { label: '자기신체사고', value: '1인당 사망·후유장해 1억원, 부상 3,000만원 한도' },
  { label: '자기차량손해', value: '차량가액 한도 (사고 1건당 자기부담금 공제)' },
];

/**
 * What the FAQ promised before orders carried options (an order placed before them): 월 2,500km,
 * 종합보험, 탁송 (서울·경기 무료). An order with options takes its plan, rate and 자기부담금 instead.
 */
export const CONTRACT_DEFAULTS = {
  mileage: { monthlyKm: 2500, overagePerKm: null },
  insurance: { cover: '종합보험 (대인·대물·자기신체사고·자기차량손해)', limits: INSURANCE_LIMITS, deductible: null },
  delivery: [{ label: '인도 방법', value: 'LUXE 라운지에서 인수 또는 원하는 주소로 탁송 (서울·경기 무료, 그 밖의 지역은 담당자 안내)' }],
} satisfies Pick<ContractInput, 'mileage' | 'insurance' | 'delivery'>;
