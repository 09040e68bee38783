import { useEffect, useState } from 'react';
import { post } from '../../client/api';
import { readBillingReturn } from '../../client/billing';
import { tripDays, tripProblems, type ButlerCar } from '../../domain/butler';
import { prefillFromSearch, prefillToSearch } from '../../domain/butler-prefill';
import { butlerOfferPeriod } from '../../domain/checkout';
import { todayInKorea } from '../../domain/dates';
import { ErrorCode } from '../../domain/error-codes';
import { formatWon } from '../../domain/money';
import type { PaymentView } from '../../domain/payments';
import { clearSession, isLoggedIn, saveRedirect } from '../../stores/session';
import Dialog from '../checkout/Dialog';
import { PaymentDeclined, PaymentDone } from '../checkout/PaymentOutcome';
import IdentityRequired from '../checkout/IdentityRequired';
import { jsonCheckoutStorage } from '../checkout/checkoutStorage';
import { useBillingCheckout, type CheckoutMessages } from '../checkout/useBillingCheckout';
import { useOrderAccount } from '../checkout/useOrderAccount';
import AddressSearch from './AddressSearch';
import CarPicker from './CarPicker';
import CouponPoints from './CouponPoints';
import ExtraInfo from './ExtraInfo';
import FeeSummary from './FeeSummary';
import TripSection from './TripSection';
import WaypointRows from './WaypointRows';
import { EMPTY_FORM, formPricing, initialForm, missingRequired, toPayload, toPrefill, withStart, type ReservationForm as Form, type ReservationPayload } from './reservation-form';
import { useReservationData } from './useReservationData';

/** What survives the card provider's redirect: the payload to send and the form to show again. */
interface ButlerDraft {
  payload: ReservationPayload;
  form: Form;
}

/** Session storage: butlerReservationDraft, and butlerReservationSubmitted:{billingKey} markers. */
const storage = jsonCheckoutStorage<ButlerDraft>('butlerReservation');

const MESSAGES: CheckoutMessages = {
  providerFailed: (m) => `정기결제 등록 실패: ${m}`,
  sendFailed: '결제 완료 후 예약 처리에 실패했습니다.',
  callFailed: (m) => `결제 처리 실패: ${m}`,
};

const send = (billingKey: string, draft: ButlerDraft | null) =>
  draft
    ? post<{ payment: PaymentView | null }>(`/butlers/cars/${draft.payload.car_id}/request`, { ...draft.payload, billing_key: billingKey })
    : Promise.resolve({ ok: false as const, status: 0, error: { code: ErrorCode.VALIDATION, message: '예약 정보가 만료되었습니다. 다시 입력해주세요.' } });

type SearchTarget = 'start' | 'end' | number;

/** A token the API refuses on this open page: drop it; 예약 요청하기 then leads to /login with the form kept. */
const dropSession = () => clearSession();

/** The days of the trip the car is already booked on (the API refuses them too, but only after the card). */
function takenDays(car: ButlerCar | null, start: string | undefined, end: string | null | undefined): string[] {
  if (!car || !start) return [];
  return tripDays(start, end ?? null).filter((d) => car.butler_reservated_dates.includes(d));
}
const SEARCH_TITLES = { start: '출발지 주소 검색', end: '도착지 주소 검색', waypoint: '경유지 주소 검색' };

/** The butler reservation form (/butler/request): trip, extras, coupon and points, card registration, completion. */
export default function ReservationForm({ cars: buildCars }: { cars: ButlerCar[] }) {
  // Read before the checkout hook strips the provider's return from the address.
  const [search] = useState(() => (typeof location === 'undefined' ? '' : location.search));
  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const restored = readBillingReturn(search) ? storage.loadDraft()?.form : null;
    setForm(restored ?? initialForm(prefillFromSearch(search), todayInKorea()));
    setReady(true);
  }, [search]);
  const data = useReservationData(buildCars);
  const checkout = useBillingCheckout({ storage, send, messages: MESSAGES });
  const account = useOrderAccount(dropSession);
  const [target, setTarget] = useState<SearchTarget | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const patch = (p: Partial<Form>) => setForm((f) => ({ ...f, ...p }));
  const car = data.cars.find((c) => c.id === form.carId) ?? null;
  const pricing = formPricing(form, car, data.coupons, data.balance, todayInKorea());
  const body = toPayload(form, pricing?.couponId ?? null, pricing?.points ?? 0);
  const taken = ready ? takenDays(car, body.start_at, body.end_at) : [];
  const problems = [
    ...(ready && body.start_at ? tripProblems({ start: body.start_at, end: body.end_at, waypoints: body.way_point_requests ?? [] }, new Date()).map((p) => p.message) : []),
    ...(taken.length ? [`선택한 날짜에 이미 예약된 차량입니다. (${taken.join(', ')})`] : []),
  ];
  const missing = missingRequired(form) || !car;
  const busy = starting || checkout.stage === 'sending';

  const choose = (address: string) => {
    if (target === 'start') patch({ startLocation: address });
    else if (target === 'end') patch({ endLocation: address });
    else if (target !== null) patch({ waypoints: form.waypoints.map((w) => (w.key === target ? { ...w, address } : w)) });
  };

  const submit = () => {
    setError(null);
    if (missing) return setError('필수 값을 모두 입력해주세요.');
    if (!isLoggedIn()) {
      alert('로그인이 필요합니다.');
      saveRedirect(`/butler/request?${prefillToSearch(toPrefill(form))}`);
      return location.assign('/login');
    }
    if (problems.length) return setError(problems[0]);
    if (account.verified === false) return setError('본인인증을 마친 회원만 의전 서비스를 신청할 수 있습니다.');
    setConfirming(true);
  };

  const agree = async () => {
    if (!car || !pricing) return;
    setConfirming(false);
    setStarting(true);
    await checkout.start(
      { payload: body, form },
      { redirectUrl: `${location.origin}/butler/request`, issueName: `${car.model.name} 의전 예약`, amount: pricing.quote.final, offerPeriod: butlerOfferPeriod() },
    );
    setStarting(false);
  };

  const alertBox = 'border border-red-300 bg-red-50 p-4 text-sm text-red-800';
  return (
    <div className="space-y-10">
      {data.carsError && <p role="alert" className={alertBox}>{data.carsError}</p>}
      {checkout.failure && <p role="alert" className={alertBox}>예약 요청에 실패했습니다. {checkout.failure}</p>}
      {checkout.declined && <PaymentDeclined reason={checkout.declined} onRetry={() => void agree()} />}
      <section aria-label="차량" className="space-y-3">
        <CarPicker cars={data.cars} value={form.carId} onChange={(carId) => patch({ carId })} />
      </section>
      <TripSection form={form} onStart={(start) => setForm((f) => withStart(f, start))} onEnd={(end) => patch({ end })} onSearch={setTarget} problems={problems} />
      <WaypointRows rows={form.waypoints} onChange={(waypoints) => patch({ waypoints })} onSearch={setTarget} />
      <ExtraInfo form={form} onChange={patch} />
      <CouponPoints
        loggedIn={data.loggedIn}
        coupons={pricing?.usable ?? []}
        baseFee={car?.butler_fee ?? 0}
        couponId={pricing?.couponId ?? null}
        onCoupon={(couponId) => patch({ couponId })}
        balance={data.balance}
        limit={pricing?.limit ?? 0}
        points={form.points}
        onPoints={(points) => patch({ points })}
      />
      <FeeSummary quote={pricing?.quote ?? null} />
      <div className="space-y-3">
        {ready && missing && <p role="status" className="text-sm text-red-700">필수 값을 모두 입력해주세요.</p>}
        {!missing && error && <p role="alert" className="text-sm text-red-700">{error}</p>}
        {account.verified === false && <IdentityRequired account={account} service="의전" returnTo={() => `/butler/request?${prefillToSearch(toPrefill(form))}`} />}
        <button type="button" disabled={!ready || missing || busy} onClick={submit} className="btn-primary w-full py-4 text-base">
          {busy ? '예약 요청 중...' : '예약 요청하기'}
        </button>
      </div>

      <AddressSearch
        open={target !== null}
        title={typeof target === 'number' ? SEARCH_TITLES.waypoint : SEARCH_TITLES[target ?? 'start']}
        onSelect={choose}
        onClose={() => setTarget(null)}
      />
      <Dialog open={confirming} title="정기결제(카드 등록)" onClose={() => setConfirming(false)}>
        <p className="text-sm leading-6">
          의전 서비스 결제를 위해 정기결제 카드를 등록합니다. 등록한 카드로 최종 결제 금액 <strong>{formatWon(pricing?.quote.final ?? 0)}원</strong>이 결제되며,
          카드 정보는 결제대행사가 보관합니다.
        </p>
        <div className="mt-6 flex gap-2">
          <button type="button" onClick={() => setConfirming(false)} className="flex-1 border border-ink py-3 font-semibold">취소</button>
          <button type="button" onClick={() => void agree()} className="flex-1 bg-ink py-3 font-semibold text-paper">동의하고 진행</button>
        </div>
      </Dialog>
      <Dialog open={checkout.stage === 'sending'} title="예약 요청 중...">
        <p role="status" className="text-sm">예약을 접수하고 있습니다. 잠시만 기다려주세요.</p>
      </Dialog>
      <Dialog open={checkout.stage === 'done'} title="신청이 완료되었습니다">
        <p>입금 확인 후 담당자가 연락드릴 예정입니다.</p>
        <PaymentDone payment={checkout.payment} />
        <button type="button" onClick={() => location.assign('/my')} className="btn-primary mt-6 w-full">확인</button>
      </Dialog>
    </div>
  );
}
