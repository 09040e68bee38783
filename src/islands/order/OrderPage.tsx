import { useEffect, useMemo, useState } from 'react';
import { post } from '../../client/api';
import { billingFailed, issueBillingKey, readBillingReturn, type BillingReturn } from '../../client/billing';
import { carDisplayName, feeForTerm } from '../../domain/car';
import { todayInKorea } from '../../domain/dates';
import { formatWon } from '../../domain/money';
import { applicablePoints, couponSelectable, maxUsablePoints, quoteSubscription } from '../../domain/pricing';
import Consents, { CONSENTS } from './Consents';
import CouponSelect from './CouponSelect';
import Dialog from './Dialog';
import { clearChoices, loadChoices, marker, saveChoices, setMarker } from './orderStorage';
import PointInput from './PointInput';
import { useOrderData } from './useOrderData';

const query = () => new URLSearchParams(typeof location === 'undefined' ? '' : location.search);

/** The subscribe order page: product, coupon, points, consents, summary, billing key, completion. */
export default function OrderPage() {
  const [params] = useState(query);
  const carId = Number(params.get('carId')) || null;
  const month = Number(params.get('month')) || 0;
  const { car, coupons, balance, error, loading } = useOrderData(carId);
  const [couponId, setCouponId] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const [consents, setConsents] = useState(() => CONSENTS.map(() => false));
  const [stage, setStage] = useState<'form' | 'summary' | 'sending' | 'done'>('form');
  const [failure, setFailure] = useState<string | null>(null);

  const fee = car ? feeForTerm(car, month) : null;
  const usable = useMemo(() => (fee === null ? [] : coupons.filter((h) => couponSelectable(h, fee, todayInKorea()))), [coupons, fee]);
  const coupon = usable.find((h) => h.id === couponId)?.coupon ?? null;
  const afterCoupon = fee === null ? 0 : quoteSubscription(fee, coupon, 0).final;
  const limit = maxUsablePoints(afterCoupon, balance);
  const points = applicablePoints(typed, limit);
  const quote = fee === null ? null : quoteSubscription(fee, coupon, points);
  const canApply = !loading && !!car && quote !== null && consents.every(Boolean);

  // The provider came back: fail loudly, or create the request exactly once per billing key.
  useEffect(() => {
    const back = readBillingReturn(location.search);
    if (!back || !carId) return;
    history.replaceState(null, '', `/inquire?month=${month}&carId=${carId}`);
    if (billingFailed(back)) {
      alert(`Payment failed: ${back.message ?? back.code ?? ''}`);
      return;
    }
    void submit(back);
  }, []);

  async function submit(back: BillingReturn) {
    const key = back.billingKey!;
    if (marker(key)) {
      setStage('done'); // this key was already sent from this tab; the server would return the same request anyway
      return;
    }
    setMarker(key, 'pending');
    setStage('sending');
    const kept = loadChoices();
    const res = await post(`/subscriptions/cars/${carId}/request`, { month, coupon_id: kept.couponId, point_amount: kept.points, billing_key: key });
    if (!res.ok) {
      setMarker(key, null);
      setStage('form');
      setFailure(res.error.message);
      alert('Subscription request failed. Please try again later.');
      return;
    }
    setMarker(key, 'done');
    clearChoices();
    setStage('done');
  }

  async function next() {
    if (!car || quote === null) return;
    saveChoices(points, coupon ? couponId : null);
    try {
      const result = await issueBillingKey({
        redirectUrl: `${location.origin}/inquire?month=${month}&carId=${car.id}`,
        issueName: `${carDisplayName(car)} ${month}개월 구독`,
        amount: quote.final,
        months: month,
      });
      if (result) {
        if (billingFailed(result)) alert(`Payment failed: ${result.message ?? result.code ?? ''}`);
        else await submit(result);
      }
    } catch (err) {
      alert(`Error during payment call: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const back = () => location.assign(carId ? `/car/${carId}` : '/garage');
  const won = (n: number) => `₩${formatWon(n)}`;

  if (loading) return <p className="py-20 text-center text-muted">로딩 중...</p>;
  return (
    <div className="space-y-8">
      {error && <p role="alert" className="border border-red-300 bg-red-50 p-4 text-red-800">{error}</p>}
      {failure && <p role="alert" className="border border-red-300 bg-red-50 p-4 text-red-800">{failure}</p>}
      {car && (
        <section aria-labelledby="product" className="flex gap-4 border border-line bg-white p-4">
          {car.images[0] && <img src={car.images[0]} alt="" width="160" height="96" className="h-24 w-40 object-contain" />}
          <div>
            <p className="text-xs tracking-widest text-muted">{car.model.brand.name}</p>
            <h2 id="product" className="text-lg font-bold">{carDisplayName(car)}</h2>
            <p className="mt-1 text-sm">구독 기간 <strong>{month ? `${month}개월` : '상담 후 결정'}</strong></p>
            <p className="mt-1 text-lg font-semibold" data-testid="order-fee">{fee === null ? '문의 필요' : `${won(fee)}/월`}</p>
          </div>
        </section>
      )}
      {fee !== null && (
        <>
          <section aria-labelledby="coupon-h" className="space-y-2">
            <h2 id="coupon-h" className="font-semibold">쿠폰 적용</h2>
            <CouponSelect coupons={usable} fee={fee} value={coupon ? couponId : null} onChange={setCouponId} />
          </section>
          <section aria-labelledby="point-h" className="space-y-2">
            <h2 id="point-h" className="font-semibold">포인트 사용</h2>
            <PointInput balance={balance} limit={limit} typed={typed} onTyped={setTyped} />
          </section>
        </>
      )}
      <Consents checked={consents} onChange={setConsents} />
      {quote && <PriceTable quote={quote} />}
      <div className="flex gap-3">
        <button type="button" onClick={back} className="flex-1 border border-ink px-6 py-4 font-semibold">뒤로</button>
        <button type="button" disabled={!canApply} onClick={() => setStage('summary')} className="flex-1 bg-ink px-6 py-4 font-semibold text-paper disabled:opacity-40">
          신청하기
        </button>
      </div>
      <Dialog open={stage === 'summary'} title="주문 확인" onClose={() => setStage('form')}>
        {car && quote && (
          <div className="space-y-4">
            <p>{carDisplayName(car)} · {month}개월</p>
            <PriceTable quote={quote} />
            <p className="text-xs text-muted">다음 단계에서 정기결제에 사용할 카드를 등록합니다.</p>
            <div className="flex gap-2">
              <button type="button" onClick={() => setStage('form')} className="flex-1 border border-ink py-3">취소</button>
              <button type="button" onClick={() => void next()} className="flex-1 bg-ink py-3 font-semibold text-paper">다음</button>
            </div>
          </div>
        )}
      </Dialog>
      <Dialog open={stage === 'sending'} title="구독 신청 중">
        <p role="status">구독 신청을 처리하고 있습니다...</p>
      </Dialog>
      <Dialog open={stage === 'done'} title="구독 신청 완료">
        <p>구독 신청이 접수되었습니다. 결제 확인 후 담당 매니저가 연락드릴 예정입니다.</p>
        <a href="/my" className="mt-6 block bg-ink py-3 text-center font-semibold text-paper">마이페이지로 이동</a>
      </Dialog>
    </div>
  );
}

function PriceTable({ quote }: { quote: ReturnType<typeof quoteSubscription> }) {
  const won = (n: number) => `₩${formatWon(n)}`;
  return (
    <dl className="grid grid-cols-2 gap-y-2 border-t border-line pt-4 text-sm" data-testid="price-table">
      <dt>월 구독료</dt><dd className="text-right">{won(quote.fee)}</dd>
      <dt>쿠폰 할인</dt><dd className="text-right">-{won(quote.couponDiscount)}</dd>
      <dt>포인트 사용</dt><dd className="text-right">-{formatWon(quote.points)} P</dd>
      <dt className="font-bold">최종 결제 금액</dt><dd className="text-right text-lg font-bold" data-testid="final-price">{won(quote.final)}</dd>
    </dl>
  );
}
