import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { formatPhone } from '../../domain/accounts';
import type { Driver } from '../../domain/dispatch';
import { handoverLabel, HANDOVER_KIND_LABEL, HANDOVER_RECORD_LABEL, HANDOVER_STATUS_LABEL, type AdminHandoversAnswer, type BoardHandover, type HandoverKind, type OpenHandover, type OpenSwap } from '../../domain/handover';
import { DELIVERY_WINDOW_TIMES } from '../../domain/delivery-change';
import { telHref } from '../../config/site';
import { DELIVERY_WINDOW_LABEL } from '../../domain/subscription-price';
import { formatNumber } from '../../domain/money';
import { call, client } from '../../client/api';
import Dialog from '../checkout/Dialog';
import HandoverPhotos from '../common/HandoverPhotos';
import HandoverRecordFields, { EMPTY_RECORD, recordBody, type RecordDraft } from '../common/HandoverRecordFields';
import LicenceStatus from '../common/LicenceStatus';
import Alert from '../common/Alert';
import { announceChange, formatDateTime } from './admin-api';
import { dotDate } from '../../domain/dates';


/** What the schedule dialog is for: a subscription's delivery or return, new or moved. */
interface ScheduleTarget {
  subscriptionId: number;
  kind: HandoverKind;
  label: string;
  current?: BoardHandover;
  /** A new slot's start: what the customer chose with the order (day, window, place). */
  initial?: Partial<Slot>;
}

/** A handover's slot as staff fill it: the driver, the day, the window and the place. */
interface Slot {
  driverId: number | null;
  date: string;
  start: string;
  end: string;
  address: string;
}

/** The slot being moved, or a new one (the customer's choice where given, else 10:00–12:00 at the place given). */
const slotOf = (c: BoardHandover | undefined, address: string | null = null, initial: Partial<Slot> = {}): Slot => ({
  driverId: c?.driver.id ?? null, date: c?.scheduled_date ?? initial.date ?? '', start: c?.window_start ?? initial.start ?? '10:00', end: c?.window_end ?? initial.end ?? '12:00',
  address: c?.address ?? address ?? initial.address ?? '',
});

/**
 * A new delivery starts on the order's start day in the window and at the address the customer
 * chose (as changed on /my); a return on the end day at that address. Staff may change any of it.
 */
function initialSlot(o: OpenHandover, kind: HandoverKind): Partial<Slot> {
  const c = o.choice;
  const times = kind === 'DELIVERY' && c?.window ? DELIVERY_WINDOW_TIMES[c.window] : null;
  return { date: kind === 'DELIVERY' ? o.start_date : o.end_date, ...(times ?? {}), address: c?.address ?? '' };
}

/** "탁송 희망: 오전 09:00~12:00 · 서울 강남구 …" or "라운지 인수": what the customer chose. */
const choiceLine = (c: OpenHandover['choice']) =>
  !c ? null : c.handover === 'DELIVERY' ? `탁송 희망: ${c.window ? DELIVERY_WINDOW_LABEL[c.window] : '시간대 미정'}${c.address ? ` · ${c.address}` : ''}` : '라운지 인수';

/** The customer's phone as a link staff tap to call (44 px tall). */
function CustomerPhone({ mobile }: { mobile: string | null }) {
  if (!mobile) return null;
  return (
    <a href={telHref(mobile)} className="inline-flex min-h-11 items-center underline underline-offset-4" data-testid="customer-phone">
      {formatPhone(mobile)}
    </a>
  );
}

/**
 * Both schedule dialogs: the slot's fields (the day only where staff choose it: a swap's is fixed),
 * the API's refusal, 일정 저장 and 닫기.
 */
function SlotDialog(props: {
  title: string; label: string; intro?: ReactNode; drivers: Driver[]; slot: Slot; onSlot: (slot: Slot) => void; withDate: boolean;
  error: string | null; busy: boolean; onSave: () => void; onClose: () => void;
}) {
  const { slot, onSlot } = props;
  const set = (patch: Partial<Slot>) => onSlot({ ...slot, ...patch });
  return (
    <Dialog open title={props.title} onClose={props.onClose}>
      <p className="text-sm text-muted">{props.label}</p>
      {props.intro}
      <div className="mt-3 space-y-3 text-sm">
        <label className="block">
          <span className="font-semibold">담당 기사</span>
          <select className="field mt-1" value={slot.driverId ?? ''} onChange={(e) => set({ driverId: e.target.value ? Number(e.target.value) : null })}>
            <option value="">선택해주세요</option>
            {props.drivers.filter((d) => d.active).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} · {formatPhone(d.phone)}
              </option>
            ))}
          </select>
        </label>
        {props.withDate && (
          <label className="block">
            <span className="font-semibold">날짜</span>
            <input type="date" className="field mt-1" value={slot.date} onChange={(e) => set({ date: e.target.value })} />
          </label>
        )}
        <div className="flex gap-2">
          <label className="block flex-1">
            <span className="font-semibold">시작</span>
            <input type="time" step={600} className="field mt-1" value={slot.start} onChange={(e) => set({ start: e.target.value })} />
          </label>
          <label className="block flex-1">
            <span className="font-semibold">종료</span>
            <input type="time" step={600} className="field mt-1" value={slot.end} onChange={(e) => set({ end: e.target.value })} />
          </label>
        </div>
        <label className="block">
          <span className="font-semibold">장소 (선택)</span>
          <input type="text" className="field mt-1" maxLength={300} value={slot.address} onChange={(e) => set({ address: e.target.value })} placeholder="예: 서울 강남구 테헤란로 152" />
        </label>
      </div>
      {props.error && <Alert className="mt-3">{props.error}</Alert>}
      <div className="mt-4 flex gap-2">
        <button type="button" className="btn-primary min-h-11 px-4 py-2" disabled={props.busy} onClick={props.onSave}>
          {props.busy ? '저장 중…' : '일정 저장'}
        </button>
        <button type="button" className="btn-outline min-h-11 px-4 py-2" onClick={props.onClose}>
          닫기
        </button>
      </div>
    </Dialog>
  );
}

/** 탁송·반납 일정: driver, day, window and place of a subscription's delivery or return. The API checks the driver's other trips under a lock. */
function ScheduleDialog({ target, drivers, onClose, onDone }: { target: ScheduleTarget; drivers: Driver[]; onClose: () => void; onDone: (text: string) => void }) {
  const [slot, setSlot] = useState(() => slotOf(target.current, null, target.initial));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = HANDOVER_KIND_LABEL[target.kind];

  const save = async () => {
    const { driverId, date, start, end, address } = slot;
    if (driverId === null) return setError('담당 기사를 선택해주세요.');
    if (!date) return setError('날짜를 선택해주세요.');
    setBusy(true);
    const res = await call((o) =>
      client.admin.subscriptions[':id'].handovers.$post({ param: { id: String(target.subscriptionId) }, json: { kind: target.kind, driver_id: driverId, date, window_start: start, window_end: end, address: address || null } }, o),
    );
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    announceChange();
    onDone(`구독 #${target.subscriptionId}의 ${kind} 일정을 ${dotDate(date)} ${start}~${end}, ${res.data.handover.driver.name} 기사로 잡았습니다.`);
  };

  return <SlotDialog title={`${kind} 일정`} label={target.label} drivers={drivers} slot={slot} onSlot={setSlot} withDate error={error} busy={busy} onSave={() => void save()} onClose={onClose} />;
}

/** What the pair dialog schedules: a CONFIRMED swap's pair, new or moved. */
interface SwapTarget {
  subscriptionId: number;
  swapId: number;
  swapDate: string;
  label: string;
  address: string | null;
  current?: BoardHandover;
}

/**
 * 교체 배차: one driver and one window on the swap day for both the old car's return and the new
 * car's delivery (the day is the swap's: billing prorated it). The API checks the window once.
 */
function SwapScheduleDialog({ target, drivers, onClose, onDone }: { target: SwapTarget; drivers: Driver[]; onClose: () => void; onDone: (text: string) => void }) {
  const [slot, setSlot] = useState(() => slotOf(target.current, target.address));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const { driverId, start, end, address } = slot;
    if (driverId === null) return setError('담당 기사를 선택해주세요.');
    setBusy(true);
    const res = await call((o) =>
      client.admin.subscriptions[':id'].swaps[':swapId'].handovers.$post(
        { param: { id: String(target.subscriptionId), swapId: String(target.swapId) }, json: { driver_id: driverId, date: target.swapDate, window_start: start, window_end: end, address: address || null } },
        o,
      ),
    );
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    announceChange();
    onDone(`구독 #${target.subscriptionId}의 차량 교체(반납·인도) 일정을 ${dotDate(target.swapDate)} ${start}~${end}, ${res.data.handovers[0]?.driver.name ?? ''} 기사로 잡았습니다.`);
  };

  const intro = (
    <p className="mt-2 text-sm">
      교체일 <span className="font-semibold">{dotDate(target.swapDate)}</span> — 요금이 이 날짜로 정산되어 다른 날로 잡을 수 없습니다. 한 기사가 같은 시간대에 기존 차량을 반납받고 새 차량을 인도합니다.
    </p>
  );
  return <SlotDialog title="차량 교체 일정 (반납·인도)" label={target.label} intro={intro} drivers={drivers} slot={slot} onSlot={setSlot} withDate={false} error={error} busy={busy} onSave={() => void save()} onClose={onClose} />;
}

/** "교체 반납 (12가 3456)" for a swap's pair, else 탁송(인도)/반납. */
const boardLabel = (h: BoardHandover) => (h.swap ? `${handoverLabel(h)} (${h.swap.plate ?? h.swap.car})` : HANDOVER_KIND_LABEL[h.kind]);
const plateOf = (c: OpenSwap['from_car']) => (c.plate ? `${c.car} (${c.plate})` : c.car);

/** 인수 기록: the odometer, fuel or charge and notes read at the handover (once; the customer then acknowledges it). */
function RecordDialog({ handover: h, onClose, onDone }: { handover: BoardHandover; onClose: () => void; onDone: (text: string) => void }) {
  const [draft, setDraft] = useState<RecordDraft>(EMPTY_RECORD);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = boardLabel(h);

  const save = async () => {
    const body = recordBody(draft);
    if ('error' in body) return setError(body.error);
    setBusy(true);
    const res = await call((o) => client.admin.handovers[':id'].record.$post({ param: { id: String(h.id) }, json: body.json }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    announceChange();
    const d = res.data.dates;
    onDone(`구독 #${h.subscription_id}의 ${kind} 기록을 저장했습니다.${d.reason ? ` ${d.reason}` : ''}${d.moved ? ` (구독 기간 ${d.start_date} ~ ${d.end_date})` : ''}`);
  };

  return (
    <Dialog open title={`${kind} 기록`} onClose={onClose}>
      <p className="text-sm text-muted">
        {h.car} · {h.customer.name}
      </p>
      <div className="mt-3 space-y-3 text-sm">
        <HandoverRecordFields value={draft} onChange={setDraft} />
        <HandoverPhotos handoverId={h.id} uploadAs="admin" />
      </div>
      {error && <Alert className="mt-3">{error}</Alert>}
      <div className="mt-4 flex gap-2">
        <button type="button" className="btn-primary min-h-11 px-4 py-2" disabled={busy} onClick={() => void save()}>
          {busy ? '저장 중…' : '기록 저장'}
        </button>
        <button type="button" className="btn-outline min-h-11 px-4 py-2" onClick={onClose}>
          닫기
        </button>
      </div>
    </Dialog>
  );
}

/** One delivery or return on the board. */
function HandoverCard({ h, onSchedule, onRecord, onCancel }: { h: BoardHandover; onSchedule: () => void; onRecord: () => void; onCancel: () => void }) {
  const kind = boardLabel(h);
  return (
    <article aria-label={`${kind} #${h.id}`} className="flex flex-wrap items-start gap-3 py-3 text-sm">
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-semibold">
          {kind} {dotDate(h.scheduled_date)} {h.window_start}~{h.window_end}{' '}
          <span className={`ml-1 inline-block px-1.5 py-0.5 text-xs font-bold ${h.status === 'DONE' ? 'bg-ink text-paper' : 'bg-line text-ink'}`}>{HANDOVER_STATUS_LABEL[h.status]}</span>
        </p>
        <p className="break-words text-muted">
          구독 #{h.subscription_id} · {h.customer.name} · {h.car}
          {!h.swap && h.plate ? ` (${h.plate})` : ''}
          {h.address ? ` · ${h.address}` : ''}
        </p>
        <p>
          고객 <CustomerPhone mobile={h.customer.mobile} />
        </p>
        <p>
          기사 <span className="font-semibold">{h.driver.name} ({formatPhone(h.driver.phone)})</span>
        </p>
        <LicenceStatus licences={h.licences} />
        {h.record && (
          <p className="break-words" data-testid="handover-record">
            주행거리 {formatNumber(h.record.odometer_km)}km · 연료(충전) {h.record.fuel_percent}%{h.record.notes ? ` · ${h.record.notes}` : ''} ·{' '}
            {h.acknowledged_at ? `고객 확인 ${formatDateTime(h.acknowledged_at)} (${h.acknowledged_name})` : '고객 확인 대기'}
          </p>
        )}
        {/* 상태 사진: thumbnails; after the record, more may be added until the customer acknowledges it. */}
        <HandoverPhotos handoverId={h.id} uploadAs={h.status === 'DONE' && !h.acknowledged_at ? 'admin' : undefined} />
      </div>
      {h.status === 'SCHEDULED' && (
        <div className="flex shrink-0 flex-wrap gap-2">
          <button type="button" aria-label={`${kind} #${h.id} 기록`} className="btn-primary min-h-11 px-3 py-1.5" onClick={onRecord}>
            {HANDOVER_RECORD_LABEL[h.kind]}
          </button>
          <button type="button" aria-label={`${kind} #${h.id} 일정 변경`} className="btn-outline min-h-11 px-3 py-1.5" onClick={onSchedule}>
            일정 변경
          </button>
          <button type="button" aria-label={`${kind} #${h.id} 일정 취소`} className="min-h-11 border border-red-700 px-3 py-1.5 font-semibold text-red-700" onClick={onCancel}>
            취소
          </button>
        </div>
      )}
    </article>
  );
}

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
