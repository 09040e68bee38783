import { useCallback, useState, type FormEvent } from 'react';
import { call, client } from '../../client/api';
import { todayInKorea } from '../../domain/dates';
import { allowanceArithmetic, ODOMETER_SOURCE_LABEL, STAFF_SOURCES, type OdometerSource } from '../../domain/mileage';
import { formatNumber, won } from '../../domain/money';
import { PAYMENT_STATUS_LABEL, type PaymentView } from '../../domain/payments';
import { StaffOdometerSchema } from '../../domain/schemas/mileage';
import Alert from '../common/Alert';

interface Reading { id: number; km: number; source: OdometerSource; read_on: string }
interface Settled { months: number; monthly_km: number; allowance_km: number; driven_km: number; arithmetic: string; amount: number }
interface Answer {
  terms: { monthly_km: number; overage_per_km: number; basis: 'ORDER' | 'CONTRACT' };
  readings: Reading[];
  estimate: Settled | null;
  settlement: { result: Settled; payment: PaymentView | null } | null;
}

const km = (n: number) => `${formatNumber(n)}km`;

/**
 * 주행거리 of a subscription in the order desk: its readings, a reading by staff (인도 / 직원 기록 /
 * 반납) and, after the 반납 reading, the overage it makes (settled by 반납 정산, SettlementPanel; 정산 다시
 * 시도 only finishes an overage charged on its own before, after a declined card). Loaded when opened.
 */
export default function MileageRecord({ subscriptionId }: { subscriptionId: number }) {
  const [data, setData] = useState<Answer | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [kmValue, setKm] = useState('');
  const [source, setSource] = useState<(typeof STAFF_SOURCES)[number]>('STAFF');
  const [readOn, setReadOn] = useState(() => todayInKorea(new Date()));
  const [busy, setBusy] = useState(false);
  const param = { id: String(subscriptionId) };

  const load = useCallback(async () => {
    const res = await call((o) => client.admin.subscriptions[':id'].odometer.$get({ param: { id: String(subscriptionId) } }, o));
    if (res.ok) setData(res.data);
    else setError(res.error.message);
  }, [subscriptionId]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const parsed = StaffOdometerSchema.safeParse({ km: kmValue.trim() ? Number(kmValue.replaceAll(',', '')) : undefined, source, read_on: readOn || undefined });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? '입력을 확인해주세요.');
    if (parsed.data.source === 'RETURN' && !window.confirm(`반납 주행거리 ${km(parsed.data.km)}를 기록할까요? 반납 후에는 주행거리를 더 기록할 수 없으며, 초과 주행 요금은 반납 정산에서 보증금부터 차감합니다.`)) return;
    setBusy(true);
    setError(null);
    const res = await call((o) => client.admin.subscriptions[':id'].odometer.$post({ param, json: parsed.data }, o));
    setBusy(false);
    if (!res.ok) {
      setError(res.error.message);
      return load();
    }
    setData(res.data.odometer);
    setKm('');
    const returned = parsed.data.source === 'RETURN' && res.data.odometer.settlement;
    setMessage(returned ? `반납 주행거리를 기록했습니다. 초과 주행: ${returned.result.arithmetic} · 아래 반납 정산에서 정산해주세요.` : res.data.created ? `${km(parsed.data.km)}를 기록했습니다.` : '이미 같은 기록이 있습니다.');
  }

  async function settle() {
    setBusy(true);
    setError(null);
    const res = await call((o) => client.admin.subscriptions[':id'].mileage.settle.$post({ param }, o));
    setBusy(false);
    if (!res.ok) {
      setError(res.error.message);
      return load();
    }
    setData(res.data.odometer);
    setMessage(`초과 주행 정산: ${res.data.settlement.result.arithmetic}`);
  }

  const failed = data?.settlement?.payment?.status === 'FAILED';
  return (
    <details className="w-full text-sm" onToggle={(e) => e.currentTarget.open && !data && void load()} data-testid="staff-mileage">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold">주행거리</summary>
      {data && (
        <div className="space-y-2">
          <p className="text-muted">
            약정 월 {km(data.terms.monthly_km)} · 초과 1km당 {won(data.terms.overage_per_km)}
            {data.terms.basis === 'CONTRACT' ? ' (옵션 이전 신청: 계약서 기준)' : ''}
          </p>
          <ul aria-label={`구독 #${subscriptionId} 주행거리 기록 목록`} className="divide-y divide-line border-y border-line">
            {data.readings.length === 0 && <li className="py-1 text-muted">기록이 없습니다.</li>}
            {data.readings.map((r) => (
              <li key={r.id} className="py-1">{r.read_on} · {ODOMETER_SOURCE_LABEL[r.source]} · {km(r.km)}</li>
            ))}
          </ul>
          {data.estimate && !data.settlement && <p className="text-muted">지금까지 주행 {km(data.estimate.driven_km)} / 약정 {allowanceArithmetic(data.estimate)}</p>}
          {data.settlement && (
            <p data-testid="staff-mileage-settlement">
              초과 주행: {data.settlement.result.arithmetic}
              {data.settlement.payment ? ` · ${PAYMENT_STATUS_LABEL[data.settlement.payment.status]} (${data.settlement.payment.id})` : ''}
            </p>
          )}
          {failed && (
            <button type="button" disabled={busy} onClick={() => void settle()} className="min-h-11 border border-ink px-3 py-1.5 font-semibold disabled:opacity-50">
              정산 다시 시도
            </button>
          )}
          {!data.settlement && (
            <form onSubmit={(e) => void submit(e)} className="flex flex-wrap items-end gap-2" aria-label={`구독 #${subscriptionId} 주행거리 기록`}>
              <label>
                <span className="mr-2 font-semibold">종류</span>
                <select className="field w-auto py-2" value={source} onChange={(e) => setSource(STAFF_SOURCES.find((s) => s === e.target.value) ?? 'STAFF')}>
                  {STAFF_SOURCES.map((s) => (
                    <option key={s} value={s}>{ODOMETER_SOURCE_LABEL[s]}</option>
                  ))}
                </select>
              </label>
              <label>
                <span className="mr-2 font-semibold">주행거리(km)</span>
                <input inputMode="numeric" className="field w-32 py-2" value={kmValue} onChange={(e) => setKm(e.target.value)} />
              </label>
              <label>
                <span className="mr-2 font-semibold">기록일</span>
                <input type="date" className="field w-auto py-2" value={readOn} onChange={(e) => setReadOn(e.target.value)} />
              </label>
              <button type="submit" disabled={busy} className="min-h-11 border border-ink px-3 py-1.5 font-semibold disabled:opacity-50">
                {busy ? '저장 중…' : source === 'RETURN' ? '반납 기록' : '기록'}
              </button>
            </form>
          )}
        </div>
      )}
      {message && <p role="status" className="text-muted">{message}</p>}
      {error && <Alert className="mt-1">{error}</Alert>}
    </details>
  );
}
