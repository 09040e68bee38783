import { useEffect, useState, type FormEvent } from 'react';
import { call, client } from '../../client/api';
import { allowanceArithmetic, ODOMETER_SOURCE_LABEL, type OdometerSource } from '../../domain/mileage';
import { formatNumber, won } from '../../domain/money';
import { PAYMENT_STATUS_LABEL, type PaymentView } from '../../domain/payments';
import Alert from '../common/Alert';

interface Reading { id: number; km: number; source: OdometerSource; read_on: string }
interface Settled { months: number; monthly_km: number; allowance_km: number; driven_km: number; arithmetic: string; amount: number }
interface Answer {
  terms: { monthly_km: number; overage_per_km: number };
  readings: Reading[];
  estimate: Settled | null;
  self_report: { refusal: string | null; next_open: string | null };
  settlement: { result: Settled; payment: PaymentView | null } | null;
}

const km = (n: number) => `${formatNumber(n)}km`;

/**
 * 주행거리 on my page: the plan, the latest reading and the km so far against the allowance, the
 * monthly report (once per billing month; the server decides and says why not), and the
 * settlement once the car is returned.
 */
export default function Mileage({ subscriptionId }: { subscriptionId: number }) {
  const [data, setData] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const param = { id: String(subscriptionId) };

  useEffect(() => {
    void call((o) => client.subscriptions[':id'].odometer.$get({ param: { id: String(subscriptionId) } }, o)).then((res) => (res.ok ? setData(res.data) : setError(res.error.message)));
  }, [subscriptionId]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const n = Number(value.replaceAll(',', '').trim());
    if (!value.trim() || !Number.isInteger(n) || n < 0) return setError('주행거리는 0 이상의 정수(km)로 입력해주세요.');
    setBusy(true);
    setError(null);
    const res = await call((o) => client.subscriptions[':id'].odometer.$post({ param, json: { km: n } }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    setData(res.data);
    setValue('');
    setNote(`${km(n)}를 기록했습니다.`);
  }

  if (!data) return error ? <Alert className="mt-2">{error}</Alert> : null;
  // Nothing to show or do (not started yet, ended or switched off without a reading): no section.
  if (!data.readings.length && !data.settlement && data.self_report.refusal !== null) return null;
  const latest = data.readings.at(-1);
  const id = `mileage-${subscriptionId}`;
  return (
    <section aria-labelledby={id} className="mt-3 w-full basis-full border border-line bg-white p-4 text-sm" data-testid="mileage">
      <h3 id={id} className="font-bold">주행거리</h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted">약정</dt>
        <dd>월 {km(data.terms.monthly_km)} · 초과 1km당 {won(data.terms.overage_per_km)}</dd>
        <dt className="text-muted">최근 기록</dt>
        <dd data-testid="mileage-latest">{latest ? `${km(latest.km)} (${latest.read_on}, ${ODOMETER_SOURCE_LABEL[latest.source]})` : '아직 기록이 없습니다.'}</dd>
        {data.estimate && !data.settlement && (
          <>
            <dt className="text-muted">지금까지</dt>
            <dd className="break-words">주행 {km(data.estimate.driven_km)} / 약정 {allowanceArithmetic(data.estimate)}</dd>
          </>
        )}
        {data.settlement && (
          <>
            <dt className="text-muted">초과 주행</dt>
            <dd className="break-words" data-testid="mileage-settlement">
              {data.settlement.result.arithmetic}
              {data.settlement.payment && ` · ${PAYMENT_STATUS_LABEL[data.settlement.payment.status]}`}
            </dd>
          </>
        )}
      </dl>
      {!data.settlement && data.self_report.refusal === null && (
        <form onSubmit={(e) => void submit(e)} className="mt-3 flex flex-wrap items-end gap-2">
          <label className="min-w-0 flex-1 basis-40">
            <span className="block text-muted">현재 계기판 주행거리 (km, 결제 월마다 한 번)</span>
            <input inputMode="numeric" className="mt-1 min-h-11 w-full border border-line px-3" value={value} onChange={(e) => setValue(e.target.value)} placeholder="예: 12345" />
          </label>
          <button type="submit" disabled={busy} className="btn-primary min-h-11 px-4 disabled:opacity-50">{busy ? '저장 중...' : '주행거리 입력'}</button>
        </form>
      )}
      {!data.settlement && data.self_report.refusal !== null && <p className="mt-2 text-muted" data-testid="mileage-refusal">{data.self_report.refusal}</p>}
      {note && <p role="status" className="mt-2 text-muted">{note}</p>}
      {error && <Alert className="mt-2">{error}</Alert>}
    </section>
  );
}
