import { useState } from 'react';
import { call, client } from '../../client/api';
import { SWAP_RULE_LINES, swapConfirmQuestion, swapCreditLine, swapFeeLine, type SwapQuote, type SwapView } from '../../domain/swap';
import { won } from '../../domain/money';
import { withParticle } from '../../domain/korean';
import Alert from '../common/Alert';
import PriceConsent from './PriceConsent';

type Car = { id: number; name: string; brand: string; new_fee: number; taken_from: string | null };
type Quote = SwapQuote & { car_id: number; car_name: string };

type State =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'open'; first: string; last: string; date: string; cars: Car[]; carId: number | null; quote: Quote | null; busy: boolean; error: string | null }
  | { kind: 'done'; swap: SwapView };

type Open = Extract<State, { kind: 'open' }>;

/**
 * 차량 교체 on my page: the customer picks the swap day (the days the server allows), a car free
 * from that day to the end (taken ones shown disabled with their day), reads the prorated month's
 * arithmetic and the new monthly fee, and confirms; the server makes the quote again and moves the
 * difference once. After: the scheduled swap (the list reloads with its 부속 계약서).
 */
export default function Swap({ subscriptionId, onDone }: { subscriptionId: number; onDone: () => void }) {
  const [state, setState] = useState<State>({ kind: 'closed' });
  // 가격 변경 동의: the fee the customer ticked (a different quote unticks it); only asked when the fee changes.
  const [consented, setConsented] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const param = { id: String(subscriptionId) };

  /** The cars for `date` and, with a free car chosen, its quote. */
  async function load(base: Pick<Open, 'first' | 'last'>, date: string, wanted: number | null) {
    setState({ kind: 'open', ...base, date, cars: [], carId: wanted, quote: null, busy: true, error: null });
    const list = await call((o) => client.subscriptions[':id'].swap.$get({ param, query: { date } }, o));
    if (!list.ok) return setState({ kind: 'open', ...base, date, cars: [], carId: null, quote: null, busy: false, error: list.error.message });
    const cars = list.data.cars;
    const carId = cars.find((c) => c.id === wanted && !c.taken_from)?.id ?? cars.find((c) => !c.taken_from)?.id ?? null;
    if (carId === null) return setState({ kind: 'open', ...base, date, cars, carId, quote: null, busy: false, error: '이 날짜에 교체할 수 있는 차량이 없습니다. 다른 날짜를 선택해주세요.' });
    const q = await call((o) => client.subscriptions[':id'].swap.$get({ param, query: { date, car_id: String(carId) } }, o));
    setState({ kind: 'open', ...base, date, cars, carId, quote: q.ok ? q.data.quote : null, busy: false, error: q.ok ? null : q.error.message });
  }

  async function open() {
    setFailure(null);
    setState({ kind: 'loading' });
    const res = await call((o) => client.subscriptions[':id'].swap.$get({ param, query: {} }, o));
    if (!res.ok) {
      setState({ kind: 'closed' });
      return setFailure(res.error.message);
    }
    await load({ first: res.data.first, last: res.data.last }, res.data.date, null);
  }

  async function confirmSwap() {
    if (state.kind !== 'open' || !state.quote || state.busy) return;
    const s = state;
    const q = s.quote!;
    if (q.new_fee !== q.old_fee && consented !== q.new_fee) return;
    // The difference moves on this tap: the amount is asked once more (issue 49).
    if (!window.confirm(swapConfirmQuestion(q))) return;
    setState({ ...s, busy: true, error: null });
    const res = await call((o) => client.subscriptions[':id'].swap.$post({ param, json: { date: q.swap_date, car_id: q.car_id, quoted_adjustment: q.adjustment, quoted_fee: q.new_fee, ...(q.new_fee !== q.old_fee ? { price_consent: q.new_fee } : {}) } }, o));
    if (!res.ok) return setState({ ...s, busy: false, error: res.error.message });
    setState({ kind: 'done', swap: res.data.swap });
    onDone();
  }

  if (state.kind === 'done') {
    const w = state.swap;
    return (
      <p className="mt-2 w-full basis-full border border-line bg-white p-3 text-sm" role="status" data-testid="swap-done">
        차량 교체가 확정되었습니다. {w.swap_date}에 {withParticle(w.from_car.name, '을/를')} 반납하고 {withParticle(w.to_car.name, '을/를')} 인도받습니다. {w.arithmetic}.
      </p>
    );
  }
  if (state.kind !== 'open') {
    return (
      <div className="shrink-0">
        <button type="button" onClick={() => void open()} disabled={state.kind === 'loading'} className="inline-flex min-h-11 min-w-11 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50">
          차량 교체
        </button>
        {failure && <Alert className="mt-1">{failure}</Alert>}
      </div>
    );
  }
  const s = state;
  const base = { first: s.first, last: s.last };
  return (
    <section aria-labelledby={`swap-${subscriptionId}`} className="mt-3 w-full basis-full border border-line bg-white p-4 text-sm" data-testid="swap">
      <h3 id={`swap-${subscriptionId}`} className="font-bold">차량 교체</h3>
      <label className="mt-2 block">
        <span className="block text-muted">교체일 ({s.first} ~ {s.last})</span>
        <input type="date" className="mt-1 min-h-11 w-full border border-line px-3" min={s.first} max={s.last} value={s.date} disabled={s.busy}
          onChange={(e) => e.target.value && void load(base, e.target.value, s.carId)} />
      </label>
      {s.cars.length > 0 && (
        <fieldset className="mt-3">
          <legend className="text-muted">새 차량</legend>
          <div className="mt-1 grid gap-2">
            {s.cars.map((c) => (
              <label key={c.id} className={`flex min-h-11 cursor-pointer items-center gap-2 border px-3 py-1 ${c.taken_from ? 'border-line text-muted' : 'border-ink'}`}>
                <input type="radio" name={`swap-car-${subscriptionId}`} value={c.id} checked={s.carId === c.id} disabled={!!c.taken_from || s.busy}
                  onChange={() => void load(base, s.date, c.id)} />
                <span className="min-w-0 flex-1 break-words">{c.brand} {c.name}</span>
                <span className="shrink-0 text-right">{c.taken_from ? `${c.taken_from}부터 일정 있음` : `월 ${won(c.new_fee)}`}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {s.quote && (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="swap-quote">
          <dt className="text-muted">교체일</dt>
          <dd>{s.quote.swap_date} ({s.quote.car_name})</dd>
          <dt className="text-muted">교체 월 계산</dt>
          <dd className="break-words" data-testid="swap-arithmetic">{s.quote.arithmetic}</dd>
          <dt className="text-muted">새 월 구독료</dt>
          <dd className="break-words">{swapFeeLine(s.quote)}</dd>
          {swapCreditLine(s.quote) && (
            <>
              <dt className="text-muted">선납금 차감</dt>
              <dd className="break-words" data-testid="swap-credit">{swapCreditLine(s.quote)}</dd>
            </>
          )}
        </dl>
      )}
      {s.quote && s.quote.new_fee !== s.quote.old_fee && <PriceConsent fee={s.quote.new_fee} consented={consented} onChange={setConsented} disabled={s.busy} />}
      <ul className="mt-3 list-disc pl-5 text-muted">{SWAP_RULE_LINES.map((line) => <li key={line}>{line}</li>)}</ul>
      {s.error && <Alert tone="box" className="mt-3">{s.error}</Alert>}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn-primary min-h-11 px-4" disabled={!s.quote || s.busy || (s.quote.new_fee !== s.quote.old_fee && consented !== s.quote.new_fee)} onClick={() => void confirmSwap()}>
          {s.busy ? '처리 중...' : s.quote && s.quote.adjustment > 0 ? `${won(s.quote.adjustment)} 결제하고 교체 확정` : '교체 확정'}
        </button>
        <button type="button" className="min-h-11 border border-line px-4" onClick={() => setState({ kind: 'closed' })}>
          닫기
        </button>
      </div>
    </section>
  );
}
