import { formatPhone } from '../../domain/accounts';
import { handoverLabel, HANDOVER_KIND_LABEL, HANDOVER_RECORD_LABEL, HANDOVER_STATUS_LABEL, type BoardHandover } from '../../domain/handover';
import { formatNumber } from '../../domain/money';
import HandoverPhotos from '../common/HandoverPhotos';
import LicenceStatus from '../common/LicenceStatus';
import { formatDateTime } from './admin-api';
import { dotDate } from '../../domain/dates';
import CustomerPhone from './CustomerPhone';

/** "교체 반납 (12가 3456)" for a swap's pair, else 탁송(인도)/반납. */
export const boardLabel = (h: BoardHandover) => (h.swap ? `${handoverLabel(h)} (${h.swap.plate ?? h.swap.car})` : HANDOVER_KIND_LABEL[h.kind]);

/** One delivery or return on the board. */
export default function HandoverCard({ h, onSchedule, onRecord, onCancel }: { h: BoardHandover; onSchedule: () => void; onRecord: () => void; onCancel: () => void }) {
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
