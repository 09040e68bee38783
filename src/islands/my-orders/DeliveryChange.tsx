import { useState } from 'react';
import { call, client } from '../../client/api';
import { DELIVERY_WINDOWS, DELIVERY_WINDOW_LABEL, MAX_DELIVERY_ADDRESS, type DeliveryWindow } from '../../domain/subscription-price';
import Alert from '../common/Alert';

type View = {
  handover: 'PICKUP' | 'DELIVERY';
  delivery_address: string | null;
  delivery_window: DeliveryWindow | null;
  start_date: string;
  deadline: string;
  changeable: boolean;
  reason: string | null;
  earliest_start: string;
};
type State =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'open'; view: View; address: string; window: DeliveryWindow | ''; start: string; busy: boolean; error: string | null; saved: boolean };

/**
 * 탁송 정보 변경 on my page (issue 49): the delivery address, window and the start date, until the
 * server's cutoff (its business clock). Only what changed is sent; the server re-checks the car's
 * days and the driver's board and tells staff.
 */
export default function DeliveryChange({ subscriptionId, onDone }: { subscriptionId: number; onDone: () => void }) {
  const [state, setState] = useState<State>({ kind: 'closed' });
  const [failure, setFailure] = useState<string | null>(null);
  const param = { id: String(subscriptionId) };

  async function open() {
    setFailure(null);
    setState({ kind: 'loading' });
    const res = await call((o) => client.subscriptions[':id'].delivery.$get({ param }, o));
    if (!res.ok) {
      setState({ kind: 'closed' });
      return setFailure(res.error.message);
    }
    const view = res.data.delivery as View;
    setState({ kind: 'open', view, address: view.delivery_address ?? '', window: view.delivery_window ?? '', start: view.start_date, busy: false, error: null, saved: false });
  }

  async function save() {
    if (state.kind !== 'open' || state.busy) return;
    const s = state;
    const json: { delivery_address?: string; delivery_window?: DeliveryWindow; start_date?: string } = {};
    if (s.view.handover === 'DELIVERY' && s.address.trim() !== (s.view.delivery_address ?? '')) json.delivery_address = s.address.trim();
    if (s.view.handover === 'DELIVERY' && s.window && s.window !== s.view.delivery_window) json.delivery_window = s.window;
    if (s.start !== s.view.start_date) json.start_date = s.start;
    if (!Object.keys(json).length) return setState({ ...s, error: '변경한 내용이 없습니다.' });
    setState({ ...s, busy: true, error: null, saved: false });
    const res = await call((o) => client.subscriptions[':id'].delivery.$patch({ param, json }, o));
    if (!res.ok) return setState({ ...s, busy: false, error: res.error.message });
    const view = res.data.delivery as View;
    setState({ kind: 'open', view, address: view.delivery_address ?? '', window: view.delivery_window ?? '', start: view.start_date, busy: false, error: null, saved: true });
    onDone();
  }

  if (state.kind !== 'open') {
    return (
      <div className="shrink-0">
        <button type="button" onClick={() => void open()} disabled={state.kind === 'loading'} className="inline-flex min-h-11 min-w-11 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50">
          탁송 정보 변경
        </button>
        {failure && <Alert className="mt-1">{failure}</Alert>}
      </div>
    );
  }
  const s = state;
  const id = `delivery-${subscriptionId}`;
  return (
    <section aria-labelledby={id} className="mt-3 w-full basis-full border border-line bg-white p-4 text-sm" data-testid="delivery-change">
      <h3 id={id} className="font-bold">탁송 정보 변경</h3>
      {!s.view.changeable ? (
        <Alert tone="box" className="mt-2">{s.view.reason}</Alert>
      ) : (
        <>
          <p className="mt-1 text-muted">{s.view.deadline}까지 변경할 수 있습니다.</p>
          {s.view.handover === 'DELIVERY' && (
            <>
              <label className="mt-2 block">
                <span className="block text-muted">탁송 주소</span>
                <input className="mt-1 min-h-11 w-full border border-line px-3" maxLength={MAX_DELIVERY_ADDRESS} value={s.address} onChange={(e) => setState({ ...s, address: e.target.value, saved: false })} />
              </label>
              <label className="mt-2 block">
                <span className="block text-muted">탁송 시간대</span>
                <select className="mt-1 min-h-11 w-full border border-line px-3" value={s.window} onChange={(e) => setState({ ...s, window: e.target.value as DeliveryWindow, saved: false })}>
                  {DELIVERY_WINDOWS.map((w) => <option key={w} value={w}>{DELIVERY_WINDOW_LABEL[w]}</option>)}
                </select>
              </label>
            </>
          )}
          <label className="mt-2 block">
            <span className="block text-muted">구독 시작일 ({s.view.earliest_start} 이후)</span>
            <input type="date" className="mt-1 min-h-11 w-full border border-line px-3" min={s.view.earliest_start} value={s.start} onChange={(e) => e.target.value && setState({ ...s, start: e.target.value, saved: false })} />
          </label>
        </>
      )}
      {s.error && <Alert tone="box" className="mt-3">{s.error}</Alert>}
      {s.saved && <p className="mt-3" role="status" data-testid="delivery-change-saved">탁송 정보가 변경되었습니다.</p>}
      <div className="mt-3 flex flex-wrap gap-2">
        {s.view.changeable && (
          <button type="button" className="btn-primary min-h-11 px-4" disabled={s.busy} onClick={() => void save()}>
            {s.busy ? '저장 중...' : '변경 저장'}
          </button>
        )}
        <button type="button" className="min-h-11 border border-line px-4" onClick={() => setState({ kind: 'closed' })}>
          닫기
        </button>
      </div>
    </section>
  );
}
