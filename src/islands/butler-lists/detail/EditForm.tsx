import { useState } from 'react';
import { call, client } from '../../../client/api';
import AddressField from '../../butler/AddressField';
import AddressSearch from '../../butler/AddressSearch';
import WaypointRows from '../../butler/WaypointRows';
import { draftOf, payloadOf, type EditDraft } from './draft';
import { editPayerOf, priceChangeQuestion, priceChanges, type EditPayer } from './edit-price';
import EditPricePreview, { useEditPrice, type EditPriceState } from './EditPricePreview';
import type { ButlerRequestView } from '../../../domain/butler';

interface Props {
  request: ButlerRequestView;
  /** Called after the server accepted the edit. */
  onSaved: () => Promise<void> | void;
  onCancel: () => void;
  /** Called after a 409 or 404 (confirmed or cancelled meanwhile, or the days taken): the page fetches the request again. */
  onRefused: (lines: string[]) => Promise<void> | void;
  /** A company's admin changing its trip from /my/company: PUT /companies/{id}/trips/{tripId} (same body) instead of the booker's own route. */
  companyId?: number;
}

/** Asked before a save whose new price could not be worked out beforehand. */
const UNKNOWN_PRICE_QUESTION = '변경 후 결제 금액을 미리 계산하지 못했습니다. 금액이 바뀌면 차액은 등록된 카드로 결제되거나 환불됩니다.\n\n변경 내용을 저장하시겠습니까?';

/** Whether to go on with a save: a change of price (or of the points kept) is confirmed first. */
function priceAccepted(price: EditPriceState, payer: EditPayer): boolean {
  if (price.status === 'ready') return !priceChanges(price.price) || confirm(priceChangeQuestion(price.price, payer));
  return price.status === 'incomplete' || confirm(UNKNOWN_PRICE_QUESTION);
}

/** The address the postcode search is filling: departure, arrival or a waypoint row (by key). */
type Target = 'start' | 'end' | number;
const TITLES = { start: '출발지 주소 검색', end: '도착지 주소 검색', waypoint: '경유지 주소 검색' };

/**
 * Edit mode: times in Korea time, addresses through the postcode search, description and waypoints;
 * the new price as the server will charge it, asked to confirm when it changes; 저장하기 sends PUT.
 */
export default function EditForm({ request, onSaved, onCancel, onRefused, companyId }: Props) {
  const [draft, setDraft] = useState<EditDraft>(() => draftOf(request));
  const [target, setTarget] = useState<Target | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string[] | null>(null);
  const set = (patch: Partial<EditDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const price = useEditPrice(request, draft);
  const payer = editPayerOf(request);

  function pick(address: string) {
    if (target === 'start') set({ startLocation: address });
    else if (target === 'end') set({ endLocation: address });
    else if (target !== null) setDraft((d) => ({ ...d, waypoints: d.waypoints.map((w) => (w.key === target ? { ...w, address } : w)) }));
  }

  async function save(e: { preventDefault(): void }) {
    e.preventDefault();
    if (busy) return;
    const built = payloadOf(draft);
    if ('problem' in built) return setProblem(['요청 수정에 실패했습니다.', built.problem]);
    if (!priceAccepted(price, payer)) return;
    setBusy(true);
    setProblem(null);
    const id = String(request.id);
    const res = await call((o) =>
      companyId === undefined
        ? client.butlers.requests[':id'].$put({ param: { id }, json: built.payload }, o)
        : client.companies[':id'].trips[':tripId'].$put({ param: { id: String(companyId), tripId: id }, json: built.payload }, o),
    );
    if (res.ok) await onSaved();
    else {
      const lines = ['요청 수정에 실패했습니다.', res.error.message, ...Object.values(res.error.errors ?? {}).flat()];
      setProblem(lines);
      if (res.status === 409 || res.status === 404) await onRefused(lines);
    }
    setBusy(false);
  }

  return (
    <form onSubmit={(e) => void save(e)} aria-label="요청 수정" className="space-y-5 border border-line bg-white p-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="text-sm font-semibold">
          출발 시간
          <input type="datetime-local" required value={draft.start} onChange={(e) => set({ start: e.target.value })} className="field mt-1 font-normal" />
        </label>
        <label className="text-sm font-semibold">
          도착 시간 (선택)
          <input type="datetime-local" value={draft.end} onChange={(e) => set({ end: e.target.value })} className="field mt-1 font-normal" />
        </label>
        <AddressField id="edit-start-location" label="출발지" required value={draft.startLocation} onOpen={() => setTarget('start')} />
        <AddressField id="edit-end-location" label="도착지" required value={draft.endLocation} onOpen={() => setTarget('end')} />
      </div>
      <label className="block text-sm font-semibold">
        요청 사항
        <textarea rows={3} maxLength={1000} value={draft.description} onChange={(e) => set({ description: e.target.value })} className="field mt-1 font-normal" />
      </label>
      <WaypointRows rows={draft.waypoints} onChange={(waypoints) => set({ waypoints })} onSearch={setTarget} />
      <EditPricePreview state={price} payer={payer} />
      {problem && (
        <div role="alert" className="text-sm text-red-700">
          {[...new Set(problem)].map((line) => <p key={line}>{line}</p>)}
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={busy} className="btn-primary">{busy ? '저장 중...' : '저장하기'}</button>
        <button type="button" onClick={onCancel} disabled={busy} className="btn-outline disabled:opacity-50">취소</button>
      </div>
      <AddressSearch
        open={target !== null}
        title={target === null ? '' : typeof target === 'number' ? TITLES.waypoint : TITLES[target]}
        defaultQuery={target === 'start' ? draft.startLocation : target === 'end' ? draft.endLocation : undefined}
        onSelect={pick}
        onClose={() => setTarget(null)}
      />
    </form>
  );
}
