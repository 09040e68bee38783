import { useEffect, useReducer, useState } from 'react';
import { call, client } from '../../client/api';
import { readBillingReturn } from '../../client/billing';
import { overtimeRate, tripDays, tripProblems, type ButlerCar } from '../../domain/butler';
import { butlerOfferPeriod } from '../../domain/checkout';
import { todayInKorea } from '../../domain/dates';
import { VALIDATION_CODE } from '../../domain/error-codes';
import { won } from '../../domain/money';
import { roundPoints } from '../../domain/pricing';
import { clearSession, isLoggedIn, saveRedirect } from '../../stores/session';
import Dialog from '../checkout/Dialog';
import { PaymentDeclined, PaymentDone } from '../checkout/PaymentOutcome';
import IdentityRequired from '../checkout/IdentityRequired';
import { jsonCheckoutStorage } from '../checkout/checkoutStorage';
import { useBillingCheckout, type CheckoutMessages } from '../checkout/useBillingCheckout';
import { useOrderAccount } from '../checkout/useOrderAccount';
import { chargedSentence } from '../checkout/payment-messages';
import AddressSearch from './AddressSearch';
import CarPicker from './CarPicker';
import CouponPoints from './CouponPoints';
import CompanyBooking, { NO_COMPANY, type CompanyChoice } from './CompanyBooking';
import VatSplit from '../common/VatSplit';
import DayTaken from './DayTaken';
import ExtraInfo from './ExtraInfo';
import RefundRules from './RefundRules';
import WaitingRules from './WaitingRules';
import { FLIGHT_NUMBER_MESSAGE, normalizeFlightNumber } from '../../domain/flights';
import FeeSummary from './FeeSummary';
import TripSection from './TripSection';
import WaypointRows from './WaypointRows';
import { clearSavedForm, loadSavedForm, openingForm, saveForm } from './form-draft';
import {
  clampPointsInput, formPricing, initialForm, isDayTaken, missingFields, pointsNote, toPayload, withStart, type ReservationForm as Form, type ReservationPayload,
} from './reservation-form';
import { initialReservationState, reservationReducer } from './reservation-state';
import { useReservationData } from './useReservationData';
import Alert from '../common/Alert';
import { carAllowed, judgeEligibility, partnerLine, type ButlerLegalAnswer, type EligibilityClaim } from '../../domain/butler-legal';
import { defaultEnd } from '../../domain/butler';
import LegalBasis from './LegalBasis';
import { useButlerLegal } from './useButlerLegal';
import CustomerCarStep from './CustomerCarStep';
import { draftFromSearch, readCustomerCar, type CustomerCarDraft } from './customer-car';
import { DEFAULT_OWN_CAR_HOURLY_RATE, type CustomerCarClaim, type SubscriptionCarChoice } from '../../domain/butler-own-car';

/** What survives the card provider's redirect: the payload to send and the form to show again. */
interface ButlerDraft {
  /** With `customer_car`: a driver for the customer's car (own-car), sent to POST /butlers/own-car/request. */
  payload: ReservationPayload & { customer_car?: CustomerCarClaim | null };
  form: Form;
}

/**
 * Session storage of the card step: butlerReservationDraft (payload and form sent on the
 * provider's return) and butlerReservationSubmitted:{billingKey} markers. What the user typed
 * is kept apart, from the first change on, under butlerReservationForm (form-draft.ts).
 */
const storage = jsonCheckoutStorage<ButlerDraft>('butlerReservation');

const MESSAGES: CheckoutMessages = {
  providerFailed: (m) => `정기결제 등록 실패: ${m}`,
  // A day someone else took first is explained on the page (DayTaken): nothing was charged.
  sendFailed: ({ status, error }) => (isDayTaken(status, error) ? null : '결제 완료 후 예약 처리에 실패했습니다.'),
  callFailed: (m) => `결제 처리 실패: ${m}`,
};

const sendOwnCar = (billingKey: string, { car_id: _none, eligibility: _no, customer_car, ...trip }: ButlerDraft['payload']) =>
  call((o) => client.butlers['own-car'].request.$post({ json: { ...trip, customer_car: customer_car!, billing_key: billingKey } }, o));

const send = (billingKey: string, draft: ButlerDraft | null) =>
  draft?.payload.customer_car
    ? sendOwnCar(billingKey, draft.payload)
    : draft
    ? call((o) => client.butlers.cars[':carId'].request.$post({ param: { carId: String(draft.payload.car_id) }, json: { ...draft.payload, billing_key: billingKey } }, o))
    : Promise.resolve({ ok: false as const, status: 0, error: { code: VALIDATION_CODE, message: '예약 정보가 만료되었습니다. 다시 입력해주세요.' } });

/** A booking for a company (createCompanyButlerRequest), with the form's request key: a retry is the same booking. */
const sendForCompany = (payload: ButlerDraft['payload'], c: CompanyChoice, requestKey: string) =>
  call((o) =>
    client.butlers.cars[':carId']['company-request'].$post({
      param: { carId: String(payload.car_id) },
      json: { ...payload, company: { company_id: c.companyId!, request_key: requestKey, guest_name: c.guestName || null, guest_phone: c.guestPhone || null, cost_centre: c.costCentre || null } },
    }, o),
  );

/**
 * Where the login and identity round trips come back to: the page as it was opened (with its
 * prefill link, if any); the saved draft, made from that same link, restores everything typed.
 */
const returnPath = (source: string) => `/butler/request${source ? `?${source}` : ''}`;

/** A token the API refuses on this open page: drop it; 예약 요청하기 then leads to /login with the form kept. */
const dropSession = () => clearSession();

/** The days of the trip the car is already booked on (the API refuses them too, but only after the card). */
function takenDays(car: ButlerCar | null, start: string | undefined, end: string | null | undefined): string[] {
  if (!car || !start) return [];
  return tripDays(start, end ?? null).filter((d) => car.butler_reservated_dates.includes(d));
}
const SEARCH_TITLES = { start: '출발지 주소 검색', end: '도착지 주소 검색', waypoint: '경유지 주소 검색' };

const focusControl = (id: string) => {
  const el = document.getElementById(id);
  el?.scrollIntoView({ block: 'center' });
  el?.focus();
};

/** The butler reservation form (/butler/request): trip, extras, coupon and points, card registration, completion. */
export default function ReservationForm({ cars: buildCars, legal: builtLegal }: { cars: ButlerCar[]; legal: ButlerLegalAnswer }) {
  // Read before the checkout hook strips the provider's return from the address.
  const [search] = useState(() => (typeof location === 'undefined' ? '' : location.search));
  // The form, its stage (opening, editing, a dialog, starting the card step) and its notices: reservation-state.ts.
  const [state, dispatch] = useReducer(reservationReducer, initialReservationState);
  const { stage, form, source, touched, submitted, dayTaken, target, error, pointNote, generation } = state;
  const ready = stage !== 'opening';
  useEffect(() => {
    const opened = openingForm({
      search,
      today: todayInKorea(new Date()),
      cardForm: readBillingReturn(search) ? storage.loadDraft()?.form : null,
      saved: loadSavedForm(),
    });
    dispatch({ type: 'opened', form: opened.form, source: opened.source, restored: opened.restored });
  }, [search]);
  const data = useReservationData(buildCars);
  // BUTLER_LEGAL_MODEL (docs/decisions/legal.md §2): the partner named, or the eligibility step.
  const legal = useButlerLegal(builtLegal);
  const [claim, setClaim] = useState<EligibilityClaim | null>(null);
  // BUTLER_LEGAL_MODEL=own-car: the customer's car instead of a fleet car (a link from /my preselects their subscription car).
  const ownCarMode = legal.model === 'own-car';
  const [customerCar, setCustomerCar] = useState<CustomerCarDraft>(() => draftFromSearch(search));
  const [subscriptionCars, setSubscriptionCars] = useState<SubscriptionCarChoice[]>([]);
  const [companyChoice, setCompanyChoice] = useState<CompanyChoice>(NO_COMPANY);
  // One key per opened form: a retried company booking is the same booking (the server's idempotency key).
  const [companyKey] = useState(() => crypto.randomUUID());
  useEffect(() => {
    if (!ownCarMode || !data.loggedIn) return;
    const ctrl = new AbortController();
    void call((o) => client.butlers['own-car'].cars.$get({}, o), { signal: ctrl.signal }).then((res) => {
      if (!ctrl.signal.aborted && res.ok) setSubscriptionCars(res.data.cars);
    });
    return () => ctrl.abort();
  }, [ownCarMode, data.loggedIn]);
  const customer = readCustomerCar(customerCar, subscriptionCars, legal.own_car?.hourly_rate ?? DEFAULT_OWN_CAR_HOURLY_RATE);
  const watchedSend = async (billingKey: string, draft: ButlerDraft | null) => {
    const res = await send(billingKey, draft);
    const taken = !res.ok && isDayTaken(res.status, res.error);
    dispatch({ type: 'answered', dayTaken: taken });
    if (taken) data.reloadCars();
    return res;
  };
  const checkout = useBillingCheckout({ storage, send: watchedSend, messages: MESSAGES });
  const account = useOrderAccount(dropSession);
  const setTarget = (t: typeof target) => dispatch({ type: 'search', target: t });

  /** A change by the user; picking a car dismisses the taken-day notice. */
  const patch = (p: Partial<Form>) => dispatch({ type: 'edited', update: (f) => ({ ...f, ...p }), dismissDayTaken: 'carId' in p });
  const today = todayInKorea(new Date());
  // The van-only cases offer 11–15 seat vans only; own-car rents no fleet car.
  const offered = data.cars.filter((c) => carAllowed(legal.model, claim?.case, c.sub_model));
  const car = ownCarMode ? customer.car : offered.find((c) => c.id === form.carId) ?? null;
  const pricing = formPricing(form, car, data.coupons, data.balance, today);
  // Booked for a company: the company pays the trip's price (no coupon or points of the booker's), shown with its 공급가액 and 부가세.
  const forCompany = companyChoice.companyId !== null;
  const shownQuote = forCompany ? formPricing({ ...form, couponId: null, points: '' }, car, [], 0, today)?.quote ?? null : pricing?.quote ?? null;
  const body = toPayload(form, pricing?.couponId ?? null, pricing?.points ?? 0);
  const taken = ready ? takenDays(car, body.start_at, body.end_at) : [];
  const problems = [
    ...(ready && body.start_at ? tripProblems({ start: body.start_at, end: body.end_at, waypoints: body.way_point_requests ?? [] }, new Date()).map((p) => p.message) : []),
    ...(taken.length ? [`선택한 날짜에 이미 예약된 차량입니다. (${taken.join(', ')})`] : []),
  ];
  // Said under its own box (ExtraInfo); here it only keeps a wrong flight number from being sent.
  const flightProblem = form.flightNumber.trim() && !normalizeFlightNumber(form.flightNumber) ? FLIGHT_NUMBER_MESSAGE : null;
  const verdict = car && body.start_at
    ? judgeEligibility(legal.model, claim, { start: new Date(body.start_at), end: body.end_at ? new Date(body.end_at) : defaultEnd(body.start_at), carSubModel: car.sub_model, flightNumber: normalizeFlightNumber(form.flightNumber) })
    : null;
  const eligibilityProblem = ownCarMode ? null : verdict && !verdict.ok ? verdict.message : null;
  // Under own-car the car is the customer's (its step says what is missing), not a fleet choice.
  const missingList = ownCarMode ? missingFields({ ...form, carId: -1 }) : missingFields(form, !!car);
  const missing = missingList.length > 0;
  const busy = stage === 'starting' || checkout.stage === 'sending';
  /** Most points usable now, once the balance is known: the price's limit with a car, else the balance (whole 10,000s). */
  const pointCap = data.loggedIn && data.balanceKnown ? (pricing ? pricing.limit : roundPoints(data.balance)) : null;

  // Keep what the user typed (this tab) until the booking succeeds or 입력 초기화.
  useEffect(() => {
    if (ready && touched && checkout.stage !== 'done') saveForm(form, source);
  }, [ready, touched, form, source, checkout.stage]);
  useEffect(() => {
    if (checkout.stage === 'done') clearSavedForm();
  }, [checkout.stage]);
  // Points above what is usable now (a coupon, a cheaper car, a restored draft) come down to it, visibly.
  useEffect(() => {
    if (!ready || pointCap === null) return;
    const clamped = clampPointsInput(form.points, pointCap);
    if (clamped.note === null) return;
    dispatch({ type: 'pointsClamped', points: clamped.value, note: pointsNote(pointCap) });
  }, [ready, pointCap, form.points]);

  const typedPoints = (digits: string) => {
    const clamped = pointCap === null ? { value: digits, note: null } : clampPointsInput(digits, pointCap);
    dispatch({ type: 'pointNote', note: clamped.note });
    patch({ points: clamped.value });
  };

  const choose = (address: string) => {
    if (target === 'start') patch({ startLocation: address });
    else if (target === 'end') patch({ endLocation: address });
    else if (target !== null) patch({ waypoints: form.waypoints.map((w) => (w.key === target ? { ...w, address } : w)) });
  };

  /** Keeps the form now (before leaving the page) and returns where to come back to. */
  const keepForReturn = () => {
    saveForm(form, source);
    return returnPath(source);
  };

  const submit = () => {
    dispatch({ type: 'submitted' });
    if (missing) return focusControl(missingList[0].id);
    if (!isLoggedIn()) {
      saveRedirect(keepForReturn());
      alert('로그인이 필요합니다.');
      return location.assign('/login');
    }
    if (problems.length) return dispatch({ type: 'refused', error: problems[0] });
    if (flightProblem) {
      focusControl('flight-number');
      return dispatch({ type: 'refused', error: flightProblem });
    }
    if (eligibilityProblem) {
      document.getElementById('eligibility-h')?.scrollIntoView({ block: 'center' });
      return dispatch({ type: 'refused', error: eligibilityProblem });
    }
    if (ownCarMode && customer.problem) {
      document.getElementById('customer-car-h')?.scrollIntoView({ block: 'center' });
      return dispatch({ type: 'refused', error: customer.problem });
    }
    if (account.verified === false) return dispatch({ type: 'refused', error: '본인인증을 마친 회원만 의전 서비스를 신청할 수 있습니다.' });
    dispatch({ type: 'confirm' });
  };

  const agree = async () => {
    if (!car || !pricing) return;
    dispatch({ type: 'starting' });
    // Booked for a company: no card window, the company pays (its card or its monthly invoice).
    if (companyChoice.companyId !== null) {
      const res = await sendForCompany(toPayload(form, null, 0), companyChoice, companyKey);
      if (res.ok) return location.assign('/my/company');
      dispatch({ type: 'refused', error: res.error.message });
      return;
    }
    await checkout.start(
      { payload: legal.model === 'exemptions' ? { ...body, eligibility: claim } : ownCarMode ? { ...body, customer_car: customer.claim } : body, form },
      { redirectUrl: `${location.origin}/butler/request`, issueName: ownCarMode ? `의전 기사 예약 (${car.model.name})` : `${car.model.name} 의전 예약`, amount: pricing.quote.final, offerPeriod: butlerOfferPeriod(new Date()) },
    );
    dispatch({ type: 'started' });
  };

  /** 입력 초기화: the saved draft goes, the form starts over from the defaults (a prefill link in the address too). */
  const reset = () => {
    clearSavedForm();
    storage.clearDraft();
    if (location.search) history.replaceState(null, '', location.pathname);
    dispatch({ type: 'reset', form: initialForm({}, todayInKorea(new Date())) });
  };

  return (
    <div className="space-y-10">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line pb-4">
        <p className="text-sm text-muted">입력한 내용은 예약이 완료될 때까지 이 창에 임시 저장됩니다.</p>
        <button type="button" onClick={() => dispatch({ type: 'resetAsk' })} disabled={!ready || busy} className="min-h-11 border border-line bg-white px-4 py-2 text-sm font-semibold disabled:opacity-40">
          입력 초기화
        </button>
      </div>
      {data.carsError && <Alert tone="box" className="text-sm">{data.carsError}</Alert>}
      {dayTaken === 'shown' && <DayTaken onChangeDate={() => focusControl('start-at')} onChangeCar={() => focusControl('car-button')} />}
      {dayTaken === null && checkout.failure && <Alert tone="box" className="text-sm">예약 요청에 실패했습니다. {checkout.failure}</Alert>}
      {checkout.declined && <PaymentDeclined reason={checkout.declined} onRetry={() => void agree()} />}
      <div key={generation} className="space-y-10">
        <section aria-label="차량" className="space-y-3">
          {ownCarMode
            ? <CustomerCarStep choices={subscriptionCars} value={customerCar} onChange={setCustomerCar} problem={submitted ? customer.problem : null} />
            : <CarPicker cars={offered} value={form.carId} onChange={(carId) => patch({ carId })} />}
        </section>
        <LegalBasis
          legal={legal}
          claim={claim}
          onClaim={setClaim}
          problem={submitted ? eligibilityProblem : null}
          noVan={legal.model === 'exemptions' && !offered.length}
        />
        <TripSection
          form={form}
          opening={!ready}
          onStart={(start) => dispatch({ type: 'edited', update: (f) => withStart(f, start), dismissDayTaken: true })}
          onEnd={(end) => patch({ end })}
          onSearch={setTarget}
          problems={problems}
        />
        <WaypointRows rows={form.waypoints} onChange={(waypoints) => patch({ waypoints })} onSearch={setTarget} />
        <ExtraInfo form={form} onChange={patch} />
        {!ownCarMode && <CompanyBooking loggedIn={data.loggedIn} value={companyChoice} onChange={setCompanyChoice} />}
        {forCompany ? (
          <p className="text-sm text-muted" data-testid="company-no-coupons">회사 이름으로 한 예약에는 쿠폰과 포인트를 쓸 수 없습니다.</p>
        ) : <CouponPoints
          loggedIn={data.loggedIn}
          coupons={pricing?.usable ?? []}
          baseFee={car?.butler_fee ?? 0}
          couponId={pricing?.couponId ?? null}
          onCoupon={(couponId) => patch({ couponId })}
          balance={data.balance}
          limit={pricing?.limit ?? 0}
          points={form.points}
          onPoints={typedPoints}
          note={pointNote}
        />}
        <FeeSummary quote={shownQuote} company={forCompany} />
        <RefundRules id="form-refund-rules" />
        <WaitingRules id="form-waiting-rules" rate={car ? overtimeRate(car) : undefined} />
      </div>
      <div className="space-y-3">
        {ready && touched && missing && (
          <div role={submitted ? 'alert' : 'status'} className="text-sm text-red-700" data-testid="missing-required">
            <p>필수 값을 모두 입력해주세요.</p>
            <p className="mt-1">입력이 필요한 항목: {missingList.map((f) => f.label).join(', ')}</p>
          </div>
        )}
        {!missing && error && <Alert>{error}</Alert>}
        {account.verified === false && <IdentityRequired account={account} service="의전" returnTo={keepForReturn} />}
        <button
          type="button"
          disabled={!ready || busy}
          aria-disabled={missing || undefined}
          onClick={submit}
          className="btn-primary w-full py-4 text-base aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-disabled:hover:bg-ink"
        >
          {busy ? '예약 요청 중...' : '예약 요청하기'}
        </button>
      </div>

      <AddressSearch
        open={target !== null}
        title={typeof target === 'number' ? SEARCH_TITLES.waypoint : SEARCH_TITLES[target ?? 'start']}
        onSelect={choose}
        onClose={() => setTarget(null)}
        defaultQuery={target === 'start' ? form.startLocation : target === 'end' ? form.endLocation : form.waypoints.find((w) => w.key === target)?.address}
      />
      <Dialog open={stage === 'confirming'} title="정기결제(카드 등록)" onClose={() => dispatch({ type: 'dialogClosed' })}>
        {companyChoice.companyId !== null ? (
          <p className="text-sm leading-6" data-testid="dialog-company">
            회사 이름으로 예약합니다. 최종 결제 금액 <strong>{won(shownQuote?.final ?? 0)}</strong> <VatSplit total={shownQuote?.final ?? 0} testId="dialog-vat" />은 회사 결제 수단(법인카드 또는 월 청구서)으로 결제되며, 승인 기준 금액을 넘으면 회사 관리자의 승인 후 결제됩니다.
          </p>
        ) : (
        <p className="text-sm leading-6">
          의전 서비스 결제를 위해 정기결제 카드를 등록합니다. 등록한 카드로 최종 결제 금액 <strong>{won(pricing?.quote.final ?? 0)}</strong>이 결제되며,
          카드 정보는 결제대행사가 보관합니다.
        </p>
        )}
        {legal.partner && <p className="mt-3 text-sm" data-testid="dialog-partner">{partnerLine(legal.partner)}</p>}
        <RefundRules id="dialog-refund-rules" compact />
        <div className="mt-6 flex gap-2">
          <button type="button" onClick={() => dispatch({ type: 'dialogClosed' })} className="flex-1 border border-ink py-3 font-semibold">취소</button>
          <button type="button" onClick={() => void agree()} className="flex-1 bg-ink py-3 font-semibold text-paper">동의하고 진행</button>
        </div>
      </Dialog>
      <Dialog open={stage === 'resetting'} title="입력 초기화" onClose={() => dispatch({ type: 'dialogClosed' })}>
        <p className="text-sm leading-6">입력한 내용을 모두 지우고 처음 상태로 되돌릴까요?</p>
        <div className="mt-6 flex gap-2">
          <button type="button" onClick={() => dispatch({ type: 'dialogClosed' })} className="flex-1 border border-ink py-3 font-semibold">취소</button>
          <button type="button" onClick={reset} className="flex-1 bg-ink py-3 font-semibold text-paper">초기화</button>
        </div>
      </Dialog>
      <Dialog open={checkout.stage === 'sending'} title="예약 요청 중...">
        <p role="status" className="text-sm">예약을 접수하고 있습니다. 잠시만 기다려주세요.</p>
      </Dialog>
      <Dialog open={checkout.stage === 'done'} title="신청이 완료되었습니다">
        <p className="font-semibold" data-testid="charged-sentence">{chargedSentence(checkout.payment)}</p>
        {/* The spec's sentence (3 §5), kept as written; the line above says what really happened to the card. */}
        <p className="mt-2">입금 확인 후 담당자가 연락드릴 예정입니다.</p>
        {legal.partner && <p className="mt-2 text-sm text-muted" data-testid="done-partner">{partnerLine(legal.partner)}</p>}
        <PaymentDone payment={checkout.payment} />
        <button type="button" onClick={() => location.assign('/my')} className="btn-primary mt-6 w-full">확인</button>
      </Dialog>
    </div>
  );
}
