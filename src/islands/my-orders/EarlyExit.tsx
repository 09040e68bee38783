import { useState } from 'react';
import { call, client } from '../../client/api';
import { EARLY_EXIT_RULE_LINES, earlyExitArithmetic, earlyExitConfirmQuestion, type EarlyExitQuote } from '../../domain/early-exit';
import { won } from '../../domain/money';
import Alert from '../common/Alert';

type State =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'open'; earliest: string; latest: string; date: string; quote: EarlyExitQuote | null; busy: boolean; error: string | null }
  | { kind: 'done'; quote: EarlyExitQuote; endDate: string };

/**
 * 중도 해지 on my page: the customer picks the return day (the days the server allows on its
 * business clock), reads the quote by the terms' rule and confirms; the fee is charged once.
 */
export default function EarlyExit({ subscriptionId, onDone }: { subscriptionId: number; onDone: () => void }) {
  const [state, setState] = useState<State>({ kind: 'closed' });
  const [failure, setFailure] = useState<string | null>(null);
  const param = { id: String(subscriptionId) };

  async function quoteFor(date: string, base: { earliest: string; latest: string }) {
    setState({ kind: 'open', ...base, date, quote: null, busy: true, error: null });
    const res = await call((o) => client.subscriptions[':id']['early-exit'].$get({ param, query: { date } }, o));
    setState({ kind: 'open', ...base, date, quote: res.ok ? res.data.quote : null, busy: false, error: res.ok ? null : res.error.message });
  }

  async function open() {
    setFailure(null);
    setState({ kind: 'loading' });
    const res = await call((o) => client.subscriptions[':id']['early-exit'].$get({ param, query: {} }, o));
    if (!res.ok) {
      setState({ kind: 'closed' });
      return setFailure(res.error.message);
    }
    const { earliest, latest } = res.data;
    if (earliest > latest) return setState({ kind: 'open', earliest, latest, date: '', quote: null, busy: false, error: '지금은 선택할 수 있는 반납일이 없습니다. 다음 달 구독료가 결제된 뒤 다시 신청해주세요.' });
    await quoteFor(earliest, { earliest, latest });
  }

  async function confirmExit() {
    if (state.kind !== 'open' || !state.quote || state.busy) return;
    const s = state;
    // The fee is charged on this tap: the amount is asked once more (issue 49).
    if (!window.confirm(earlyExitConfirmQuestion(s.quote!))) return;
    setState({ ...s, busy: true, error: null });
    const res = await call((o) => client.subscriptions[':id']['early-exit'].$post({ param, json: { date: s.date } }, o));
    if (!res.ok) return setState({ ...s, busy: false, error: res.error.message });
    setState({ kind: 'done', quote: res.data.early_exit.quote, endDate: res.data.early_exit.end_date });
    onDone();
  }

  if (state.kind === 'done') {
    return (
      <p className="mt-2 border border-line bg-white p-3 text-sm" role="status" data-testid="early-exit-done">
        중도 해지가 확정되었습니다. {state.endDate}에 반납해주세요. {state.quote.fee > 0 ? `수수료 ${won(state.quote.fee)}이 결제되었습니다.` : '남은 개월이 없어 수수료는 없습니다.'}
      </p>
    );
  }
  if (state.kind !== 'open') {
    return (
      <div className="shrink-0">
        <button type="button" onClick={() => void open()} disabled={state.kind === 'loading'} className="inline-flex min-h-11 min-w-11 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50">
          해지하기
        </button>
        {failure && <Alert className="mt-1">{failure}</Alert>}
      </div>
    );
  }
  const s = state;
  return (
    <section aria-labelledby={`early-exit-${subscriptionId}`} className="mt-3 w-full basis-full border border-line bg-white p-4 text-sm" data-testid="early-exit">
      <h3 id={`early-exit-${subscriptionId}`} className="font-bold">중도 해지</h3>
      {s.date && (
        <label className="mt-2 block">
          <span className="block text-muted">반납일 ({s.earliest} ~ {s.latest})</span>
          <input
            type="date"
            className="mt-1 min-h-11 w-full border border-line px-3"
            min={s.earliest}
            max={s.latest}
            value={s.date}
            onChange={(e) => e.target.value && void quoteFor(e.target.value, s)}
          />
        </label>
      )}
      {s.quote && (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="early-exit-quote">
          <dt className="text-muted">남은 개월 수</dt>
          <dd>{s.quote.remaining_months}개월</dd>
          <dt className="text-muted">계산</dt>
          <dd className="break-words">{earlyExitArithmetic(s.quote)}</dd>
          <dt className="text-muted">중도 해지 수수료</dt>
          <dd className="font-bold">{won(s.quote.fee)}</dd>
        </dl>
      )}
      <ul className="mt-3 list-disc pl-5 text-muted">{EARLY_EXIT_RULE_LINES.map((line) => <li key={line}>{line}</li>)}</ul>
      {s.error && <Alert tone="box" className="mt-3">{s.error}</Alert>}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn-primary min-h-11 px-4" disabled={!s.quote || s.busy} onClick={() => void confirmExit()}>
          {s.busy ? '처리 중...' : s.quote && s.quote.fee > 0 ? `${won(s.quote.fee)} 결제하고 해지 확정` : '해지 확정'}
        </button>
        <button type="button" className="min-h-11 border border-line px-4" onClick={() => setState({ kind: 'closed' })}>
          닫기
        </button>
      </div>
    </section>
  );
}
