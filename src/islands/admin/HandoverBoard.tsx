import { useCallback, useEffect, useRef, useState } from 'react';
import type { Driver } from '../../domain/dispatch';
import { HANDOVER_KIND_LABEL, type AdminHandoversAnswer, type BoardHandover, type OpenHandover, type OpenSwap } from '../../domain/handover';
import { DELIVERY_WINDOW_LABEL } from '../../domain/subscription-price';
import { call, client } from '../../client/api';
import Alert from '../common/Alert';
import { announceChange } from './admin-api';
import { dotDate } from '../../domain/dates';
import CustomerPhone from './CustomerPhone';
import HandoverCard from './HandoverCard';
import ScheduleDialog, { initialSlot, type ScheduleTarget } from './HandoverScheduleDialog';
import SwapScheduleDialog, { type SwapTarget } from './SwapScheduleDialog';
import RecordDialog from './HandoverRecordDialog';

/** "탁송 희망: 오전 09:00~12:00 · 서울 강남구 …" or "라운지 인수": what the customer chose. */
const choiceLine = (c: OpenHandover['choice']) =>
  !c ? null : c.handover === 'DELIVERY' ? `탁송 희망: ${c.window ? DELIVERY_WINDOW_LABEL[c.window] : '시간대 미정'}${c.address ? ` · ${c.address}` : ''}` : '라운지 인수';

const plateOf = (c: OpenSwap['from_car']) => (c.plate ? `${c.car} (${c.plate})` : c.car);

/**
 * 탁송·반납 on the 배차 board: the deliveries and returns of the board's days (same range), with
 * 인수 기록, 일정 변경 and 취소, and the subscriptions still waiting for a delivery or a return with
 * 일정 잡기. A driver already on a butler trip at that time is refused by the API (Korean 409).
 */
export default function HandoverBoard({ from, days, drivers, onChanged }: { from: string; days: number; drivers: Driver[]; onChanged: () => void }) {
  const [data, setData] = useState<AdminHandoversAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [scheduling, setScheduling] = useState<ScheduleTarget | null>(null);
  const [swapping, setSwapping] = useState<SwapTarget | null>(null);
  const [recording, setRecording] = useState<BoardHandover | null>(null);

  const latest = useRef(0);
  const load = useCallback(async () => {
    if (!from) return;
    const seq = ++latest.current;
    const res = await call((o) => client.admin.handovers.$get({ query: { from, days: String(days) } }, o));
    if (seq !== latest.current) return;
    if (res.ok) {
      setData(res.data);
      setError(null);
    } else setError(res.error.message);
  }, [from, days]);
  useEffect(() => void load(), [load]);

  const done = async (text: string) => {
    setScheduling(null);
    setSwapping(null);
    setRecording(null);
    setMessage(text);
    await load();
    onChanged();
  };
  const cancel = async (h: BoardHandover) => {
    // A swap's pair is called off together (the API cancels both rows).
    const what = h.swap ? '차량 교체(반납·인도)' : HANDOVER_KIND_LABEL[h.kind];
    if (!window.confirm(`구독 #${h.subscription_id}의 ${what} 일정을 취소할까요?`)) return;
    const res = await call((o) => client.admin.handovers[':id'].$delete({ param: { id: String(h.id) } }, o));
    if (res.ok) announceChange();
    await done(res.ok ? `${what} 일정을 취소했습니다.` : res.error.message);
  };

  return (
    <section aria-label="탁송·반납" className="border-t border-ink">
      <h3 className="py-2 font-semibold">
        탁송·반납 <span className="text-sm font-normal text-muted">{data ? `${data.handovers.length}건` : ''}</span>
      </h3>
      {message && <p role="status" className="pb-2 text-sm text-muted">{message}</p>}
      {error && <Alert>{error}</Alert>}
      {data && !data.handovers.length && <p className="pb-2 text-sm text-muted">이 기간에 잡힌 탁송·반납 일정이 없습니다.</p>}
      <div className="divide-y divide-line border-t border-line">
        {data?.handovers.map((h) => (
          <HandoverCard
            key={`${h.id}-${h.updated_at}`}
            h={h}
            onRecord={() => setRecording(h)}
            onSchedule={() =>
              h.swap
                ? setSwapping({ subscriptionId: h.subscription_id, swapId: h.swap.id, swapDate: h.swap.swap_date, label: `구독 #${h.subscription_id} · ${h.customer.name}`, address: h.address, current: h })
                : setScheduling({ subscriptionId: h.subscription_id, kind: h.kind, label: `${h.car} · ${h.customer.name}`, current: h })
            }
            onCancel={() => void cancel(h)}
          />
        ))}
      </div>
      {data && data.open_swaps.length > 0 && (
        <details className="mt-3 text-sm" open>
          <summary className="cursor-pointer py-2 font-semibold">교체 배차 대기 {data.open_swaps.length}건</summary>
          <ul className="divide-y divide-line border-t border-line">
            {data.open_swaps.map((o) => (
              <li key={o.swap_id} className="flex flex-wrap items-center gap-2 py-2" data-testid="open-swap">
                <span className="min-w-0 flex-1 break-words">
                  구독 #{o.subscription_id} · {o.customer.name} · {plateOf(o.from_car)} → {plateOf(o.to_car)} · 교체일 {dotDate(o.swap_date)}
                  {o.address ? ` · ${o.address}` : ''}
                </span>
                <button
                  type="button"
                  aria-label={`구독 #${o.subscription_id} 차량 교체 일정 잡기`}
                  className="btn-outline min-h-11 px-3 py-1.5"
                  onClick={() =>
                    setSwapping({
                      subscriptionId: o.subscription_id, swapId: o.swap_id, swapDate: o.swap_date, address: o.address,
                      label: `구독 #${o.subscription_id} · ${o.customer.name} · ${plateOf(o.from_car)} → ${plateOf(o.to_car)}`,
                    })
                  }
                >
                  교체 일정 잡기
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
      {data && data.open.length > 0 && (
        <details className="mt-3 text-sm" open>
          <summary className="cursor-pointer py-2 font-semibold">일정이 필요한 구독 {data.open.length}건</summary>
          <ul className="divide-y divide-line border-t border-line">
            {data.open.map((o) => (
              <li key={o.subscription_id} className="flex flex-wrap items-center gap-2 py-2" data-testid="open-handover">
                <span className="min-w-0 flex-1 break-words">
                  구독 #{o.subscription_id} · {o.customer.name} · {o.car}
                  {o.plate ? ` (${o.plate})` : ''} · {dotDate(o.start_date)} ~ {dotDate(o.end_date)}
                  {choiceLine(o.choice) && <span className="block" data-testid="open-handover-choice">{choiceLine(o.choice)}</span>}
                  <span className="block">
                    고객 <CustomerPhone mobile={o.customer.mobile} />
                  </span>
                </span>
                {o.missing.map((kind) => (
                  <button
                    key={kind}
                    type="button"
                    aria-label={`구독 #${o.subscription_id} ${HANDOVER_KIND_LABEL[kind]} 일정 잡기`}
                    className="btn-outline min-h-11 px-3 py-1.5"
                    onClick={() => setScheduling({ subscriptionId: o.subscription_id, kind, label: `${o.car} · ${o.customer.name} · ${dotDate(o.start_date)} ~ ${dotDate(o.end_date)}`, initial: initialSlot(o, kind) })}
                  >
                    {kind === 'DELIVERY' ? '탁송 일정 잡기' : '반납 일정 잡기'}
                  </button>
                ))}
              </li>
            ))}
          </ul>
        </details>
      )}
      {scheduling && <ScheduleDialog target={scheduling} drivers={drivers} onClose={() => setScheduling(null)} onDone={(t) => void done(t)} />}
      {swapping && <SwapScheduleDialog target={swapping} drivers={drivers} onClose={() => setSwapping(null)} onDone={(t) => void done(t)} />}
      {recording && <RecordDialog handover={recording} onClose={() => setRecording(null)} onDone={(t) => void done(t)} />}
    </section>
  );
}
