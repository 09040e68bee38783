import { useState } from 'react';
import { call, client } from '../../client/api';
import { EXTENSION_RULE_LINES, extensionFeeLine, type ExtensionQuote } from '../../domain/extension';
import { won } from '../../domain/money';
import Alert from '../common/Alert';
import PriceConsent from './PriceConsent';

type Choice = ExtensionQuote & { taken_from: string | null };

type State =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'open'; choices: Choice[]; months: number | null; busy: boolean; error: string | null }
  | { kind: 'done'; quote: ExtensionQuote };

/** Why a term cannot be chosen: the car's next booking starts inside it. */
const taken = (c: Choice) => (c.taken_from ? `${c.taken_from}부터 차량 일정이 있어 선택할 수 없습니다` : null);

/**
 * 구독 연장 on my page: the customer picks how many months to add (the car's terms priced today),
 * reads the new end date and the monthly fee from the month it applies, and confirms; the server
 * makes the quote again and refuses a changed fee. After: the new end date (the list reloads with
 * the 부속 계약서 link).
 */
export default function Extension({ subscriptionId, onDone }: { subscriptionId: number; onDone: () => void }) {
  const [state, setState] = useState<State>({ kind: 'closed' });
  // 가격 변경 동의: the fee the customer ticked (a different quote unticks it).
  const [consented, setConsented] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const param = { id: String(subscriptionId) };

  async function open() {
    setFailure(null);
    setState({ kind: 'loading' });
    const res = await call((o) => client.subscriptions[':id'].extension.$get({ param, query: {} }, o));
    if (!res.ok) {
      setState({ kind: 'closed' });
      return setFailure(res.error.message);
    }
    const free = res.data.choices.find((c) => !c.taken_from);
    setState({
      kind: 'open', choices: res.data.choices, months: free?.months ?? null, busy: false,
      error: free ? null : '지금은 연장할 수 있는 기간이 없습니다. 차량의 다음 일정 때문에 연장이 어렵다면 고객센터로 문의해주세요.',
    });
  }

  async function confirmExtension() {
    if (state.kind !== 'open' || state.months === null || state.busy) return;
    const s = state;
    const q = s.choices.find((c) => c.months === s.months)!;
    if (consented !== q.monthly_fee) return;
    setState({ ...s, busy: true, error: null });
    const res = await call((o) => client.subscriptions[':id'].extension.$post({ param, json: { months: q.months, quoted_fee: q.monthly_fee, price_consent: q.monthly_fee, end_date: q.current_end_date } }, o));
    if (!res.ok) return setState({ ...s, busy: false, error: res.error.message });
    setState({ kind: 'done', quote: res.data.extension });
    onDone();
  }

  if (state.kind === 'done') {
    return (
      <p className="mt-2 w-full basis-full border border-line bg-white p-3 text-sm" role="status" data-testid="extension-done">
        구독이 {state.quote.months}개월 연장되어 새 종료일은 {state.quote.new_end_date}입니다. {extensionFeeLine(state.quote)}이 결제됩니다.
      </p>
    );
  }
  if (state.kind !== 'open') {
    return (
      <div className="shrink-0">
        <button type="button" onClick={() => void open()} disabled={state.kind === 'loading'} className="inline-flex min-h-11 min-w-11 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50">
          연장하기
        </button>
        {failure && <Alert className="mt-1">{failure}</Alert>}
      </div>
    );
  }
  const s = state;
  const q = s.choices.find((c) => c.months === s.months) ?? null;
  return (
    <section aria-labelledby={`extension-${subscriptionId}`} className="mt-3 w-full basis-full border border-line bg-white p-4 text-sm" data-testid="extension">
      <h3 id={`extension-${subscriptionId}`} className="font-bold">구독 연장</h3>
      <fieldset className="mt-2">
        <legend className="text-muted">연장 기간</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {s.choices.map((c) => (
            <label key={c.months} className={`inline-flex min-h-11 min-w-11 cursor-pointer items-center gap-2 border px-3 ${c.taken_from ? 'border-line text-muted' : 'border-ink'}`} title={taken(c) ?? undefined}>
              <input type="radio" name={`extension-months-${subscriptionId}`} value={c.months} checked={s.months === c.months} disabled={!!c.taken_from || s.busy} onChange={() => setState({ ...s, months: c.months, error: null })} />
              {c.months}개월
            </label>
          ))}
        </div>
        {s.choices.some((c) => c.taken_from) && (
          <ul className="mt-1 text-xs text-muted">{s.choices.filter((c) => c.taken_from).map((c) => <li key={c.months}>{c.months}개월: {taken(c)}</li>)}</ul>
        )}
      </fieldset>
      {q && (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="extension-quote">
          <dt className="text-muted">현재 종료일</dt>
          <dd>{q.current_end_date}</dd>
          <dt className="text-muted">새 종료일</dt>
          <dd className="font-bold">{q.new_end_date}</dd>
          <dt className="text-muted">연장 월 구독료</dt>
          <dd className="break-words">
            {extensionFeeLine(q)}
            {q.option_extras !== 0 && <span className="block text-xs text-muted">{q.months}개월 요금 {won(q.base_fee)} + 옵션 월 요금 {won(q.option_extras)}</span>}
          </dd>
          <dt className="text-muted">연장 기간 총액</dt>
          <dd>{won(q.monthly_fee * q.months)}</dd>
        </dl>
      )}
      {q && <PriceConsent fee={q.monthly_fee} consented={consented} onChange={setConsented} disabled={s.busy} />}
      <ul className="mt-3 list-disc pl-5 text-muted">{EXTENSION_RULE_LINES.map((line) => <li key={line}>{line}</li>)}</ul>
      {s.error && <Alert tone="box" className="mt-3">{s.error}</Alert>}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn-primary min-h-11 px-4" disabled={!q || s.busy || consented !== q.monthly_fee} onClick={() => void confirmExtension()}>
          {s.busy ? '처리 중...' : q ? `${q.months}개월 연장 확정` : '연장 확정'}
        </button>
        <button type="button" className="min-h-11 border border-line px-4" onClick={() => setState({ kind: 'closed' })}>
          닫기
        </button>
      </div>
    </section>
  );
}
