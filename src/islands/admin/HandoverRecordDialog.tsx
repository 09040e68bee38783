import { useState } from 'react';
import type { BoardHandover } from '../../domain/handover';
import { call, client } from '../../client/api';
import Dialog from '../checkout/Dialog';
import HandoverPhotos from '../common/HandoverPhotos';
import HandoverRecordFields, { EMPTY_RECORD, recordBody, type RecordDraft } from '../common/HandoverRecordFields';
import Alert from '../common/Alert';
import { announceChange } from './admin-api';
import { boardLabel } from './HandoverCard';

/** 인수 기록: the odometer, fuel or charge and notes read at the handover (once; the customer then acknowledges it). */
export default function RecordDialog({ handover: h, onClose, onDone }: { handover: BoardHandover; onClose: () => void; onDone: (text: string) => void }) {
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
