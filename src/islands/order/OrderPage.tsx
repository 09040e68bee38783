import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { call, client } from '../../client/api';
import { termOfferPeriod } from '../../domain/checkout';
import { carDisplayName, feeForTerm, orderRefusal } from '../../domain/car';
import { carInquiryPath } from '../../domain/contact';
import { addDays, dotDate, todayInKorea } from '../../domain/dates';
import { won } from '../../domain/money';
import { applicablePoints, couponSelectable, maxUsablePoints } from '../../domain/pricing';
import { carOptionPrices, optionRefusal, optionsFromQuery, prepaymentChoices, pricedOptions, quoteSubscriptionOrder, type SubscriptionOptions, type SubscriptionOrderQuote } from '../../domain/subscription-price';
import CouponSelect from '../checkout/CouponSelect';
import Dialog from '../checkout/Dialog';
import IdentityRequired from '../checkout/IdentityRequired';
import PointInput from '../checkout/PointInput';
import { PaymentDeclined, PaymentDone, PaymentUnsure } from '../checkout/PaymentOutcome';
import PriceTable from '../checkout/PriceTable';
import { chargedSentence, subscriptionCheckoutMessages } from '../checkout/payment-messages';
import { useBillingCheckout } from '../checkout/useBillingCheckout';
import { useOrderAccount } from '../checkout/useOrderAccount';
import Consents, { CONSENTS } from './Consents';
import { isOptionalConsent, OPTIONAL_ORDER_CONSENT, requiredConsentsGiven } from '../../domain/contract';
import DriverLicences, { holderLicence } from './DriverLicences';
import { driverBand } from '../../domain/licence';
import OrderOptions from './OrderOptions';
import { quoteLines } from '../../domain/subscription-lines';
import OrderInquiry from './OrderInquiry';
import { orderStorage } from './orderStorage';
import { useOrderData } from './useOrderData';
import { useTermAvailability } from './useTermAvailability';
import { useLicences } from './useLicences';
import Picture from '../photos/Picture';
import Alert from '../common/Alert';
import Pending from '../common/Pending';
import { isLoggedIn } from '../../stores/session';
import { companyPayment, type CompanyOrderChoice } from './company-order';

// 회사 명의로 구독 (issue 52): only a company's admin sees it, so the part is loaded apart.
const CompanyOrder = lazy(() => import('./CompanyOrder'));

/** What the company order answered: its request, and the API's sentence for a repeated submit. */
interface CompanyOrderDone {
  requestId: number;
  companyName: string;
  driverName: string;
  payment: string;
  message: string | null;
}

const MESSAGES = subscriptionCheckoutMessages('구독 신청에 실패했습니다. 잠시 후 다시 시도해주세요.');

const query = () => new URLSearchParams(typeof location === 'undefined' ? '' : location.search);

/** The subscribe order page: product, coupon, points, consents, summary, billing key, completion. */
export default function OrderPage() {
  const [params] = useState(query);
  const carId = Number(params.get('carId')) || null;
  const month = Number(params.get('month')) || 0;
  const { car, coupons, balance, error, loading, refreshWallet } = useOrderData(carId);
  // A refused token goes to /login (back here afterwards); an unverified account verifies first.
  const account = useOrderAccount();
  const [couponId, setCouponId] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const [consents, setConsents] = useState(() => CONSENTS.map(() => false));
  const [summaryOpen, setSummaryOpen] = useState(false);
  // 회사 명의로 구독: the company and its driver (null: a private order), and one key per opened form,
  // so a retried submit is the same order on the server (company-sub:{id}:{key}).
  const [companyChoice, setCompanyChoice] = useState<CompanyOrderChoice | null>(null);
  const [companyKey] = useState(() => (typeof crypto === 'undefined' ? '' : crypto.randomUUID()));
  const [companySending, setCompanySending] = useState(false);
  const [companyFailure, setCompanyFailure] = useState<string | null>(null);
  // No answer (the network): the order may be taken, and its hold would refuse the page's own retry, so 다시 시도 resends the same key directly.
  const [companyUnsure, setCompanyUnsure] = useState(false);
  const [companyDone, setCompanyDone] = useState<CompanyOrderDone | null>(null);
  const [signedIn] = useState(() => typeof window !== 'undefined' && isLoggedIn());
  // The first day of the term: the car's first free day (a live read; the page itself is static), changeable.
  const [startDate, setStartDate] = useState(() => orderStorage.loadDraft()?.startDate ?? '');
  // The options: from a draft (back from the card window), else from the car page's address (km, age, drivers, handover, prepay), else the defaults.
  const [chosen, setChosen] = useState<SubscriptionOptions | null>(() => orderStorage.loadDraft()?.options ?? null);
  // 운전자격 확인: the customer's checked licences, and the one chosen for each additional driver.
  const licences = useLicences();
  const [extraIds, setExtraIds] = useState<(number | undefined)[]>(() => orderStorage.loadDraft()?.extraLicenceIds ?? []);
  // Availability for this term and the chosen start (a live read; the page itself is static). The page
  // shows its sections once the first read has answered: a start date filled in after its field was
  // drawn empty moved the field's segments (a layout shift).
  const availability = useTermAvailability(carId, month, startDate);
  const availabilityRead = availability.read;
  // Before paint (a layout effect): the field is never drawn empty and then filled.
  useLayoutEffect(() => {
    const a = availability.first;
    if (a) setStartDate((s) => s || a.available_from);
  }, [availability.first]);
  const checkout = useBillingCheckout({
    storage: orderStorage,
    ready: Boolean(carId),
    messages: MESSAGES,
    // One order per billing key on the server: a lost answer is asked for again, never paid again (issue 47).
    resend: true,
    send: (billingKey, draft) =>
      call((o) =>
        client.subscriptions.cars[':id'].request.$post(
          {
            param: { id: String(carId) },
            json: {
              month, coupon_id: draft?.couponId ?? null, point_amount: draft?.points ?? 0, billing_key: billingKey, ...(draft?.startDate ? { start_date: draft.startDate } : {}),
              // The server prices the order again and refuses it when its first payment differs from the one shown.
              ...(draft?.options ? { options: draft.options } : {}), ...(draft?.quoted ? { quoted_first_payment: draft.quoted } : {}),
              ...(draft?.extraLicenceIds?.length ? { extra_driver_licence_ids: draft.extraLicenceIds } : {}),
              location_consent: draft?.locationConsent === true,
            },
          },
          o,
        ),
      ),
  });

  // Refused after the card (another order took the days meanwhile): the line is read again, so 구독 가능 never stays under the refusal.
  const { recheck } = availability;
  useEffect(() => {
    if (checkout.failure) void recheck();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per failure
  }, [checkout.failure]);

  // Behind the completion dialog the page shows what is left after the spend.
  useEffect(() => {
    if (checkout.stage !== 'done') return;
    setTyped('');
    setCouponId(null);
    void refreshWallet();
  }, [checkout.stage, refreshWallet]);

  // A declined card spent nothing: the choices come back for another card. The wallet is read
  // again: one read while the order was in flight saw the points spent (and would cap them at 0).
  useEffect(() => {
    if (!checkout.declined) return;
    void refreshWallet();
    const draft = orderStorage.loadDraft();
    if (!draft) return;
    setCouponId(draft.couponId);
    if (draft.startDate) setStartDate(draft.startDate);
    if (draft.options) setChosen(draft.options);
    if (draft.extraLicenceIds) setExtraIds(draft.extraLicenceIds);
    setTyped(draft.points ? String(draft.points) : '');
    setConsents(CONSENTS.map((c) => !isOptionalConsent(c) || draft.locationConsent === true));
  }, [checkout.declined, refreshWallet]);

  const fee = car ? feeForTerm(car, month) : null;
  const inquiry = car && fee === null ? carInquiryPath(car, month) : null;
  const prices = useMemo(() => (car ? carOptionPrices(car) : null), [car]);
  const picked = useMemo(() => chosen ?? (prices ? optionsFromQuery(params, prices).options : null), [chosen, prices, params]);
  // The age band is the checked drivers' on the start (their birth dates, the new-driver rule), never a free choice.
  const extraCount = picked?.extra_drivers ?? 0;
  const holder = holderLicence(licences.list);
  const extras = Array.from({ length: extraCount }, (_, i) => licences.list?.find((l) => l.role === 'EXTRA' && l.status === 'VALID' && l.id === extraIds[i]));
  const drivers = holder?.status === 'VALID' && extras.every((l) => l !== undefined) ? [holder, ...extras] : null;
  const band = drivers && startDate ? driverBand(drivers, startDate, licences.policy) : null;
  // For a company order the band is the driver's (checked by the server), so the admin's licences fix nothing.
  const options = picked && band?.ok && !companyChoice ? { ...picked, driver_age: band.band } : picked;
  const priced = options ? pricedOptions(options) : null;
  // The monthly fee with the options: what the coupon's range, its discount and the points are measured against.
  const monthly = fee === null || !prices || !priced ? null : quoteSubscriptionOrder({ month, fee, prices, options: priced }).monthly;
  const usable = useMemo(() => (monthly === null ? [] : coupons.filter((h) => couponSelectable(h, monthly, todayInKorea(new Date())))), [coupons, monthly]);
  // A company order takes no coupon or points of the orderer.
  const coupon = companyChoice ? null : usable.find((h) => h.id === couponId)?.coupon ?? null;
  const base = fee === null || !prices || !priced ? null : { month, fee, prices, options: priced };
  const afterCoupon = base ? quoteSubscriptionOrder({ ...base, coupon }).first_month : 0;
  const limit = maxUsablePoints(afterCoupon, balance);
  const points = companyChoice ? 0 : applicablePoints(typed, limit);
  const quote = base ? quoteSubscriptionOrder({ ...base, coupon, points }) : null;
  const problem = base && options ? (optionRefusal({ ...base, options })?.message ?? null) : null;
  const prepayments = base ? prepaymentChoices(base) : [0];
  // Refused before the card window opens: a car not open for orders (yet), or an unverified account.
  const refusal = car ? orderRefusal(car, todayInKorea(new Date())) : null;
  const licenceProblem = band && !band.ok ? band.message : null;
  // For a company the driver's licence and age band are checked by the server (the admin's own licences do not matter).
  const companyReady = companyChoice !== null && companyChoice.driver !== null && extraCount === 0 && (companyChoice.company.billing === 'INVOICE' || companyChoice.company.card !== null);
  const companyExtraProblem = companyChoice && extraCount > 0 ? '회사 명의 구독의 추가 운전자는 고객센터로 문의해주세요.' : null;
  const canCompanyApply = companyReady && !loading && !!car && quote !== null && !problem && requiredConsentsGiven(consents) && !refusal && !availability.refused && account.verified === true && !companySending && !companyUnsure;
  const canApply = companyChoice ? canCompanyApply : !loading && !!car && quote !== null && !problem && band?.ok === true && requiredConsentsGiven(consents) && !refusal && !availability.refused && account.verified === true && !checkout.unsure;

  async function next() {
    if (!car || quote === null || refusal || problem || band?.ok !== true || account.verified !== true) return;
    setSummaryOpen(false);
    // The chosen start is checked before the card window: a taken term never registers a card.
    if (!(await availability.check(startDate))) return;
    await checkout.start(
      { points, couponId: coupon ? couponId : null, startDate, options, quoted: quote.paid_today, extraLicenceIds: extras.map((l) => l!.id), locationConsent: consents[CONSENTS.indexOf(OPTIONAL_ORDER_CONSENT)] },
      {
        redirectUrl: `${location.origin}/inquire?month=${month}&carId=${car.id}`,
        issueName: `${carDisplayName(car)} ${month}개월 구독`,
        amount: quote.final,
        offerPeriod: termOfferPeriod(month),
      },
    );
  }

  /** 회사 명의로 구독: no card window; the company pays (its card or the monthly statement). A retry sends the same key. */
  async function orderForCompany() {
    if (!car || quote === null || !companyChoice?.driver || !options) return;
    setSummaryOpen(false);
    if (!(await availability.check(startDate))) return;
    await sendCompanyOrder();
  }

  async function sendCompanyOrder() {
    if (!car || quote === null || !companyChoice?.driver || !options) return;
    setCompanyUnsure(false);
    setCompanySending(true);
    setCompanyFailure(null);
    const { company, driver } = companyChoice;
    const res = await call((o) =>
      client.subscriptions.cars[':id']['company-request'].$post(
        {
          param: { id: String(car.id) },
          json: {
            month, ...(startDate ? { start_date: startDate } : {}), options, quoted_first_payment: quote.paid_today,
            location_consent: consents[CONSENTS.indexOf(OPTIONAL_ORDER_CONSENT)] === true,
            company: { company_id: company.id, request_key: companyKey, driver_user_id: driver.id },
          },
        },
        o,
      ),
    );
    setCompanySending(false);
    if (!res.ok && res.status === 0) {
      setCompanyUnsure(true);
      return;
    }
    if (!res.ok) {
      setCompanyFailure(res.error.message);
      void recheck();
      return;
    }
    setCompanyDone({ requestId: res.data.subscription_request.id, companyName: company.name, driverName: driver.name, payment: companyPayment(company), message: res.data.message });
  }

  const back = () => location.assign(carId ? `/car/${carId}` : '/garage');

  if (loading || !availabilityRead || licences.list === null) return <OrderFrame />;
  return (
    <div className="space-y-8">
      {error && <Alert tone="box">{error}</Alert>}
      {checkout.failure && <Alert tone="box">{checkout.failure}</Alert>}
      {companyFailure && <Alert tone="box" testId="company-order-failure">{companyFailure}</Alert>}
      {companyUnsure && (
        <div role="alert" className="border border-line bg-paper p-4" data-testid="company-order-unsure">
          <p className="font-semibold">신청 결과를 아직 확인하지 못했습니다.</p>
          <p className="mt-1 text-sm">다시 시도하면 같은 신청의 접수 여부를 확인하며, 회사 명의로 두 번 신청되거나 결제되지 않습니다.</p>
          <button type="button" onClick={() => void sendCompanyOrder()} className="mt-3 min-h-11 border border-ink px-4 py-2 text-sm font-semibold">다시 시도</button>
        </div>
      )}
      {checkout.declined && <PaymentDeclined reason={checkout.declined} onRetry={() => void next()} />}
      {checkout.unsure && <PaymentUnsure onRetry={checkout.resume} />}
      {refusal && checkout.stage === 'idle' && <Alert tone="box" testId="order-refusal">{refusal} 지금은 신청할 수 없습니다.</Alert>}
      {!refusal && account.verified === false && <IdentityRequired account={account} service="구독" returnTo={() => `${location.pathname}${location.search}`} />}
      {car && (
        <ProductCard
          picture={car.gallery[0] && <Picture image={{ ...car.gallery[0], focus: undefined }} sizes="160px" eager decorative className="h-24 w-40 object-contain" />}
          brand={car.model.brand.name}
          name={carDisplayName(car)}
          term={month ? `${month}개월` : '상담 후 결정'}
          availability={availability.line}
          refused={Boolean(availability.refused)}
          fee={fee === null ? '문의 필요' : `${won(fee)}/월`}
        />
      )}
      {fee !== null && (
        <>
          <section aria-labelledby="start-h" className="space-y-2">
            <h2 id="start-h" className="font-semibold">구독 시작일</h2>
            <input
              type="date"
              aria-labelledby="start-h"
              data-testid="order-start-date"
              min={addDays(todayInKorea(new Date()), 1)}
              value={startDate}
              onChange={(e) => setStartDate(e.target.value)}
              className="border border-line px-3 py-2"
            />
            <p className="text-xs text-muted">다른 고객의 구독 일정과 겹치면 신청 전에 안내해드리며, 결제되지 않습니다.</p>
          </section>
          {prices && options && (
            <OrderOptions
              prices={prices} options={options} onChange={setChosen} prepayments={prepayments} startDate={startDate} problem={problem}
              ageFixed={band?.ok && !companyChoice ? (band.reason ?? '확인된 운전면허의 생년월일(구독 시작일 기준)로 정해집니다.') : null}
            />
          )}
          {/* Drawn unless the account turns out unverified (its 본인인증 comes first), so nothing pops in when the account answers. */}
          {signedIn && (
            <Suspense fallback={null}>
              <CompanyOrder value={companyChoice} onChange={setCompanyChoice} monthly={monthly} />
            </Suspense>
          )}
          {companyExtraProblem && <Alert tone="box">{companyExtraProblem}</Alert>}
          {account.verified !== false && !companyChoice && (
            <>
              <DriverLicences licences={licences} extraCount={extraCount} extraIds={extraIds} onExtraIds={setExtraIds} />
              {licenceProblem && <Alert tone="box" testId="licence-problem">{licenceProblem}</Alert>}
            </>
          )}
          {!companyChoice && (
            <>
              <section aria-labelledby="coupon-h" className="space-y-2">
                <h2 id="coupon-h" className="font-semibold">쿠폰 적용</h2>
                <CouponSelect coupons={usable} fee={monthly ?? fee} value={coupon ? couponId : null} onChange={setCouponId} />
              </section>
              <section aria-labelledby="point-h" className="space-y-2">
                <h2 id="point-h" className="font-semibold">포인트 사용</h2>
                <PointInput balance={balance} limit={limit} typed={typed} onTyped={setTyped} />
              </section>
            </>
          )}
        </>
      )}
      {inquiry ? <OrderInquiry month={month} /> : <Consents checked={consents} onChange={setConsents} />}
      {quote && <SubscriptionPrice quote={quote} />}
      <div className="flex gap-3">
        <button type="button" onClick={back} className="flex-1 border border-ink px-6 py-4 font-semibold">뒤로</button>
        {inquiry ? (
          <a href={inquiry} className="flex-1 bg-ink px-6 py-4 text-center font-semibold text-paper">문의하기</a>
        ) : (
          <button type="button" disabled={!canApply} onClick={() => setSummaryOpen(true)} className="flex-1 bg-ink px-6 py-4 font-semibold text-paper disabled:opacity-40">
            신청하기
          </button>
        )}
      </div>
      <Dialog open={summaryOpen && checkout.stage === 'idle'} title="주문 확인" onClose={() => setSummaryOpen(false)}>
        {car && quote && (
          <div className="space-y-4">
            <p>{carDisplayName(car)} · {month}개월{startDate ? ` · ${dotDate(startDate)} 시작` : ''}</p>
            <SubscriptionPrice quote={quote} />
            {companyChoice ? (
              <p className="text-sm" data-testid="summary-company">
                {companyChoice.company.name} 명의로 구독합니다 (운전자 {companyChoice.driver?.name}). 결제 방법: {companyPayment(companyChoice.company)}. 카드 등록 창은 열리지 않습니다.
              </p>
            ) : (
              <p className="text-xs text-muted">다음 단계에서 정기결제에 사용할 카드를 등록하면 첫 달 최종 결제 금액이 바로 결제됩니다.</p>
            )}
            <div className="flex gap-2">
              <button type="button" onClick={() => setSummaryOpen(false)} className="flex-1 border border-ink py-3">취소</button>
              <button type="button" onClick={() => void (companyChoice ? orderForCompany() : next())} className="flex-1 bg-ink py-3 font-semibold text-paper">{companyChoice ? '회사 명의로 신청' : '다음'}</button>
            </div>
          </div>
        )}
      </Dialog>
      <Dialog open={companySending} title="구독 신청 중">
        <p role="status">회사 명의 구독 신청을 처리하고 있습니다...</p>
      </Dialog>
      <Dialog open={companyDone !== null} title="회사 명의 구독 신청 완료">
        {companyDone && (
          <div data-testid="company-order-done">
            <p><strong>{companyDone.companyName}</strong> 명의로 구독 신청(신청 #{companyDone.requestId})이 접수되었습니다.</p>
            {companyDone.message && <p className="mt-2 font-semibold">{companyDone.message}</p>}
            <p className="mt-2">운전자 {companyDone.driverName} · 결제 방법 {companyDone.payment}</p>
            <p className="mt-2">담당 매니저가 차량 인도 일정을 안내해드리기 위해 연락드릴 예정입니다.</p>
            <a href="/my/company" className="mt-6 block bg-ink py-3 text-center font-semibold text-paper">회사 관리로 이동</a>
          </div>
        )}
      </Dialog>
      <Dialog open={checkout.stage === 'sending'} title="구독 신청 중">
        <p role="status">구독 신청을 처리하고 있습니다...</p>
      </Dialog>
      <Dialog open={checkout.stage === 'done'} title="구독 신청 완료">
        <p>구독 신청이 접수되었습니다.</p>
        {checkout.notice && <p className="mt-2 font-semibold" data-testid="order-notice">{checkout.notice}</p>}
        <p className="mt-2 font-semibold" data-testid="charged-sentence">{chargedSentence(checkout.payment)}</p>
        <p className="mt-2">담당 매니저가 차량 인도 일정을 안내해드리기 위해 연락드릴 예정입니다.</p>
        <PaymentDone payment={checkout.payment} />
        <a href="/my" className="mt-6 block bg-ink py-3 text-center font-semibold text-paper">마이페이지로 이동</a>
      </Dialog>
    </div>
  );
}

/** The whole price: the option lines, then 오늘 결제 금액 (final-price), 2회차부터 매월 and the term's total. */
function SubscriptionPrice({ quote }: { quote: SubscriptionOrderQuote }) {
  const ids: Record<string, string> = { '오늘 결제 금액': 'final-price', '2회차부터 매월': 'later-monthly' };
  return (
    <PriceTable
      rows={quoteLines(quote).map((l) => ({
        ...l,
        total: l.label === '오늘 결제 금액',
        testId: ids[l.label] ?? (l.label.startsWith('총 구독료') ? 'term-total' : l.label === '보증금 (환불)' ? 'deposit' : undefined),
      }))}
    />
  );
}

/**
 * The product section. Its lines keep their heights while empty, so the frame below and the filled
 * card start at the same place and nothing moves (CLS 0).
 */
function ProductCard({ picture, brand, name, term, availability, refused = false, fee }: { picture?: ReactNode; brand: ReactNode; name: ReactNode; term: ReactNode; availability: string; refused?: boolean; fee: ReactNode }) {
  return (
    <section aria-labelledby="product" className="flex gap-4 border border-line bg-white p-4">
      {picture ?? <div aria-hidden="true" className="h-24 w-40 shrink-0 bg-line/40" />}
      <div>
        <p className="min-h-4 text-xs tracking-widest text-muted">{brand}</p>
        <h2 id="product" className="min-h-7 text-lg font-bold">{name}</h2>
        <p className="mt-1 text-sm">구독 기간 <strong>{term}</strong></p>
        <p className={`mt-1 min-h-5 text-sm ${refused ? 'font-semibold text-danger' : 'text-muted'}`} role={refused ? 'alert' : undefined} data-testid="order-availability" data-refused={refused || undefined}>{availability}</p>
        <p className="mt-1 min-h-7 text-lg font-semibold" data-testid="order-fee">{fee}</p>
      </div>
    </section>
  );
}

/** What the page shows before the car and the wallet answer: the product card's frame (the address's month is not read before hydration). */
function OrderFrame() {
  return (
    <div className="space-y-8">
      <ProductCard brand={<Pending width="w-16" />} name={<><span className="sr-only">차량 정보</span><Pending width="w-40" /></>} term={<Pending width="w-12" />} availability="" fee={<Pending width="w-28" />} />
      <p role="status" className="py-12 text-center text-muted">로딩 중...</p>
    </div>
  );
}
