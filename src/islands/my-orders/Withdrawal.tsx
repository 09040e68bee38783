import { useState } from 'react';
import { call, client } from '../../client/api';
import { won } from '../../domain/money';
import { withdrawalRuleLines, type WithdrawalQuote } from '../../domain/withdrawal';
import Alert from '../common/Alert';

type Line = { label: string; amount: string };
type State =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'open'; days: number; quote: WithdrawalQuote | null; lines: Line[]; reason: string | null; busy: boolean; error: string | null }
  | { kind: 'done'; refunded: number };

/** The second question, with the card refund in won (as the butler cancel asks). */
const withdrawalQuestion = (q: Pick<WithdrawalQuote, 'refund' | 'kind'>) =>
  [
    '구독을 청약철회하시겠습니까? 철회 후에는 되돌릴 수 없습니다.',
    `등록한 카드로 ${won(q.refund)}을 환불합니다.`,
    q.kind === 'BEFORE_HANDOVER' ? '예정된 탁송은 취소되고, 사용한 쿠폰과 포인트는 되돌려 드립니다.' : '차량 반납 일정은 운영팀이 연락드려 잡습니다.',
  ].join('\n');

/**
 * 청약철회 on my page (전자상거래법 제17조): 청약철회 opens the server's quote with each part named
 * and the rule; 청약철회 확정 asks once more with the refund amount, then the server refunds once.
 */
export default function Withdrawal({ subscriptionId, onDone }: { subscriptionId: number; onDone: () => void }) {
  const [state, setState] = useState<State>({ kind: 'closed' });
  const [failure, setFailure] = useState<string | null>(null);
  const param = { id: String(subscriptionId) };

  async function open() {
    setFailure(null);
    setState({ kind: 'loading' });
    const res = await call((o) => client.subscriptions[':id'].withdrawal.$get({ param }, o));
    if (!res.ok) {
      setState({ kind: 'closed' });
      return setFailure(res.error.message);
    }
    const d = res.data;
    setState({ kind: 'open', days: d.withdrawal_days, quote: d.available ? d.quote : null, lines: d.available ? d.lines : [], reason: d.reason, busy: false, error: null });
  }

  async function withdraw() {
    if (state.kind !== 'open' || !state.quote || state.busy) return;
    const s = state;
    const quote = s.quote!;
    if (!confirm(withdrawalQuestion(quote))) return;
    setState({ ...s, busy: true, error: null });
    const res = await call((o) => client.subscriptions[':id'].withdrawal.$post({ param, json: { quoted_refund: quote.refund } }, o));
    if (!res.ok) return setState({ ...s, busy: false, error: res.error.message });
    setState({ kind: 'done', refunded: res.data.withdrawal.refunded });
    onDone();
  }

  if (state.kind === 'done') {
    return (
      <p className="mt-2 w-full basis-full border border-line bg-white p-3 text-sm" role="status" data-testid="withdrawal-done">
        청약철회가 완료되었습니다. 등록한 카드로 {won(state.refunded)}이 환불됩니다.
      </p>
    );
  }
  if (state.kind !== 'open') {
    return (
      <div className="shrink-0">
        <button type="button" onClick={() => void open()} disabled={state.kind === 'loading'} className="inline-flex min-h-11 min-w-11 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50">
          청약철회
        </button>
        {failure && <Alert className="mt-1">{failure}</Alert>}
      </div>
    );
  }
  const s = state;
  return (
    <section aria-labelledby={`withdrawal-${subscriptionId}`} className="mt-3 w-full basis-full border border-line bg-white p-4 text-sm" data-testid="withdrawal">
      <h3 id={`withdrawal-${subscriptionId}`} className="font-bold">청약철회</h3>
      {s.reason && <Alert tone="box" className="mt-2">{s.reason}</Alert>}
      {s.quote && (
        <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1" data-testid="withdrawal-quote">
          {s.lines.map((l) => (
            <div key={l.label} className="contents">
              <dt className="break-words text-muted">{l.label}</dt>
              <dd className="text-right tabular-nums">{l.amount}</dd>
            </div>
          ))}
        </dl>
      )}
      {s.quote?.deadline && <p className="mt-2 text-muted">{s.quote.deadline}까지 청약철회할 수 있습니다.</p>}
      <ul className="mt-3 list-disc pl-5 text-muted">{withdrawalRuleLines(s.days).map((line) => <li key={line}>{line}</li>)}</ul>
      {s.error && <Alert tone="box" className="mt-3">{s.error}</Alert>}
      <div className="mt-3 flex flex-wrap gap-2">
        {s.quote && (
          <button type="button" className="btn-primary min-h-11 px-4" disabled={s.busy} onClick={() => void withdraw()}>
            {s.busy ? '처리 중...' : `${won(s.quote.refund)} 환불받고 청약철회`}
          </button>
        )}
        <button type="button" className="min-h-11 border border-line px-4" onClick={() => setState({ kind: 'closed' })}>
          닫기
        </button>
      </div>
    </section>
  );
}
