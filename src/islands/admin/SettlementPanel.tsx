import { useCallback, useRef, useState } from 'react';
import { call, client } from '../../client/api';
import { won } from '../../domain/money';
import { FUEL_SHORTFALL_PER_PERCENT, SETTLEMENT_RULE_LINES, type SettlementView } from '../../domain/settlement';
import { SettlementSchema } from '../../domain/schemas/settlement';
import Alert from '../common/Alert';
import SettlementLines from '../common/SettlementLines';
import { formatDateTime } from './admin-api';

interface DamageRow { description: string; amount: string }

/**
 * 반납 정산 in the order desk (after the 반납 reading): staff enter damages (each up to the
 * contract's 자기부담금; the fuel or charge shortfall comes from the handover records), preview the lines, then confirm once: the
 * deposit first, the rest charged to the card or the rest of the deposit refunded. A declined card
 * shows the reason; 다시 시도 charges again under a new attempt id. Loaded when opened.
 */
export default function SettlementPanel({ subscriptionId }: { subscriptionId: number }) {
  const [data, setData] = useState<SettlementView | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [damages, setDamages] = useState<DamageRow[]>([]);
  const [override, setOverride] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const param = { id: String(subscriptionId) };

  const parsed = () =>
    SettlementSchema.safeParse({
      damages: damages.map((d) => ({ description: d.description, amount: d.amount.trim() ? Number(d.amount.replaceAll(',', '')) : undefined })),
    });

  // Previews are numbered: the first read (on opening) answering after the one with the staff's
  // entries would show, and confirm against, a total without them.
  const reads = useRef(0);
  const preview = useCallback(async (entry?: { damages: { description: string; amount: number }[] }) => {
    const read = ++reads.current;
    setError(null);
    const query = entry ? { damages: JSON.stringify(entry.damages) } : {};
    const res = await call((o) => client.admin.subscriptions[':id'].settlement.$get({ param: { id: String(subscriptionId) }, query }, o));
    if (read !== reads.current) return;
    setLoaded(true);
    if (res.ok) setData(res.data.settlement);
    else setError(res.error.message);
  }, [subscriptionId]);

  async function onPreview() {
    const p = parsed();
    if (!p.success) return setError(p.error.issues[0]?.message ?? '입력을 확인해주세요.');
    await preview(p.data);
  }

  async function confirm() {
    const p = parsed();
    if (!p.success) return setError(p.error.issues[0]?.message ?? '입력을 확인해주세요.');
    if (!data) return;
    const retry = data.status === 'PENDING';
    if (!retry && !window.confirm(`반납 정산을 확정할까요? ${data.summary}`)) return;
    setBusy(true);
    setError(null);
    const waiting = data.acknowledgement?.state === 'WAITING';
    const json = retry ? { damages: data.damages } : { ...p.data, quoted_total: data.total, ...(waiting ? { acknowledgement_override: override } : {}) };
    const res = await call((o) => client.admin.subscriptions[':id'].settlement.$post({ param, json }, o));
    setBusy(false);
    if (!res.ok) {
      // The lines as the server reads them now, with what staff entered (a 409 says the total moved).
      await preview(retry ? undefined : p.data);
      return setError(res.error.message);
    }
    setData(res.data.settlement);
    setMessage(`반납 정산을 확정했습니다. ${res.data.settlement.summary}`);
  }

  const stored = data && data.status !== 'PREVIEW';
  return (
    <details className="w-full text-sm" onToggle={(e) => e.currentTarget.open && !loaded && void preview()} data-testid="staff-settlement">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold">반납 정산</summary>
      <div className="space-y-2">
        <ul className="list-disc pl-5 text-muted">
          {SETTLEMENT_RULE_LINES.map((l) => <li key={l}>{l}</li>)}
        </ul>
        {!stored && loaded && (
          <form onSubmit={(e) => { e.preventDefault(); void onPreview(); }} className="space-y-2" aria-label={`구독 #${subscriptionId} 반납 정산 입력`}>
            {damages.map((d, i) => (
              <div key={i} className="flex flex-wrap items-end gap-2">
                <label>
                  <span className="mr-2 font-semibold">손상 {i + 1}</span>
                  <input className="field w-48 py-2" value={d.description} placeholder="예: 앞범퍼 긁힘" onChange={(e) => setDamages(damages.map((x, j) => (j === i ? { ...x, description: e.target.value } : x)))} />
                </label>
                <label>
                  <span className="mr-2 font-semibold">수리 견적(원)</span>
                  <input inputMode="numeric" className="field w-32 py-2" value={d.amount} onChange={(e) => setDamages(damages.map((x, j) => (j === i ? { ...x, amount: e.target.value } : x)))} />
                </label>
                <button type="button" className="min-h-11 border border-line px-3" onClick={() => setDamages(damages.filter((_, j) => j !== i))}>삭제</button>
              </div>
            ))}
            <button type="button" className="min-h-11 border border-line px-3" onClick={() => setDamages([...damages, { description: '', amount: '' }])}>손상 항목 추가</button>
            <button type="submit" className="min-h-11 border border-ink px-3 py-1.5 font-semibold">미리보기</button>
          </form>
        )}
        {data && (
          <div data-testid="staff-settlement-result">
            <p className="font-semibold">{data.status === 'PREVIEW' ? '미리보기' : data.status === 'DONE' ? '정산 완료' : '정산 처리 중'} · 자기부담금 사고 1건당 {won(data.deductible)}</p>
            <p className="text-muted">초과 주행: {data.mileage_arithmetic}</p>
            {/* From the delivery and return records (each car's after a swap), never typed. */}
            <p className="text-muted" data-testid="settlement-fuel">
              연료·충전 (인수·반납 기록): {data.fuel_arithmetic ?? '부족분 없음'} · 1%당 {won(FUEL_SHORTFALL_PER_PERCENT)}
            </p>
            {data.acknowledgement && data.acknowledgement.state !== 'NONE' && (
              <p className={data.acknowledgement.state === 'WAITING' ? 'font-semibold text-danger' : 'text-muted'} data-testid="settlement-acknowledgement">
                {data.acknowledgement.state === 'ACKNOWLEDGED' && `반납 기록 고객 확인 ${formatDateTime(data.acknowledgement.acknowledged_at)}`}
                {data.acknowledgement.state === 'TIMED_OUT' && `반납 기록 고객 미확인: 확인 기한(${formatDateTime(data.acknowledgement.wait_until)})이 지나 기록대로 정산합니다.`}
                {data.acknowledgement.state === 'WAITING' && `고객이 반납 기록을 아직 확인하지 않았습니다. ${formatDateTime(data.acknowledgement.wait_until)}까지 기다리거나, 사유를 남기고 정산해주세요.`}
              </p>
            )}
            {data.status === 'PREVIEW' && data.acknowledgement?.state === 'WAITING' && (
              <label className="block">
                <span className="mr-2 font-semibold">확인 없이 정산하는 사유</span>
                <input className="field w-full py-2" maxLength={200} value={override} onChange={(e) => setOverride(e.target.value)} placeholder="예: 고객이 전화로 기록을 확인함" />
              </label>
            )}
            <SettlementLines s={data} />
          </div>
        )}
        {data && data.status === 'PREVIEW' && (
          <button type="button" disabled={busy} onClick={() => void confirm()} className="min-h-11 border border-ink bg-ink px-3 py-1.5 font-semibold text-paper disabled:opacity-50">
            {busy ? '정산 중…' : '정산 확정'}
          </button>
        )}
        {data && data.status === 'PENDING' && (
          <button type="button" disabled={busy} onClick={() => void confirm()} className="min-h-11 border border-ink px-3 py-1.5 font-semibold disabled:opacity-50">
            {busy ? '정산 중…' : '정산 다시 시도'}
          </button>
        )}
        {message && <p role="status" className="text-muted">{message}</p>}
        {error && <Alert className="mt-1">{error}</Alert>}
      </div>
    </details>
  );
}
