import { useState } from 'react';
import { handoverLabel, type Handover } from '../../domain/handover';
import { dotDate, formatKoreaDateTime } from '../../domain/dates';
import { formatNumber } from '../../domain/money';
import { call, client } from '../../client/api';
import Alert from '../common/Alert';
import HandoverPhotos from '../common/HandoverPhotos';


/** The acknowledgement of one record: the customer types their name and taps 확인. */
function Acknowledge({ handover: h, onDone }: { handover: Handover; onDone: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `ack-${h.id}`;
  const submit = async () => {
    if (!name.trim()) return setError('이름을 입력해주세요.');
    setBusy(true);
    const res = await call((o) => client.handovers[':id'].acknowledge.$post({ param: { id: String(h.id) }, json: { name } }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    onDone();
  };
  return (
    <form
      className="mt-2 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={id} className="block w-full text-muted">
        기록 내용이 맞다면 회원 이름을 입력하고 확인을 눌러주세요.
      </label>
      <input id={id} type="text" autoComplete="name" maxLength={40} className="min-h-11 min-w-0 flex-1 basis-40 border border-line px-3" value={name} onChange={(e) => setName(e.target.value)} placeholder="이름" />
      <button type="submit" className="btn-primary min-h-11 px-4" disabled={busy}>
        {busy ? '처리 중...' : '기록 확인'}
      </button>
      {error && <Alert className="w-full">{error}</Alert>}
    </form>
  );
}

/**
 * 탁송·반납 of one subscription on /my/subscriptions: the day, window and driver of each scheduled
 * handover and, once recorded, the odometer, fuel and notes to acknowledge with the customer's name.
 */
export default function Handovers({ handovers, onChanged }: { handovers: Handover[]; onChanged: () => void }) {
  if (!handovers.length) return null;
  return (
    <div className="mt-3 space-y-2" data-testid="handovers">
      {handovers.map((h) => {
        const kind = handoverLabel(h);
        return (
          <section key={h.id} aria-label={`차량 ${kind}`} className="border border-line bg-white p-3 text-sm" data-testid="handover">
            <h3 className="font-bold">
              차량 {kind} {h.status === 'DONE' ? '완료' : '예정'}
            </h3>
            {/* 차량 교체: which car this one hands back or over. */}
            {h.swap && (
              <p className="mt-1 break-words text-muted">
                {h.swap.car}
                {h.swap.plate ? ` (${h.swap.plate})` : ''}
              </p>
            )}
            <p className="mt-1">
              {dotDate(h.scheduled_date)} {h.window_start}~{h.window_end} · 담당 기사 {h.driver.name}
            </p>
            {h.address && <p className="break-words text-muted">{h.address}</p>}
            {h.record && (
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt className="text-muted">{kind}일</dt>
                <dd>{dotDate(h.record.actual_date)}</dd>
                <dt className="text-muted">주행거리</dt>
                <dd>{formatNumber(h.record.odometer_km)}km</dd>
                <dt className="text-muted">연료(충전) 잔량</dt>
                <dd>{h.record.fuel_percent}%</dd>
                {h.record.notes && (
                  <>
                    <dt className="text-muted">메모</dt>
                    <dd className="break-words">{h.record.notes}</dd>
                  </>
                )}
              </dl>
            )}
            <HandoverPhotos handoverId={h.id} />
            {h.record && h.acknowledged_at && (
              <p className="mt-2 font-semibold" role="status" data-testid="handover-acknowledged">
                {formatKoreaDateTime(h.acknowledged_at)}에 {h.acknowledged_name} 님이 확인했습니다.
              </p>
            )}
            {h.record && !h.acknowledged_at && <Acknowledge handover={h} onDone={onChanged} />}
          </section>
        );
      })}
    </div>
  );
}
