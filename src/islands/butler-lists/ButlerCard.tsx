import { TRIP_STAGE_LABEL, type TripStage } from '../../domain/dispatch';
import { ORDER_STATUS_LABEL } from '../../domain/orders';
import { butlerCarName, tripPeriod } from './format';
import type { ButlerRequestView } from '../../domain/butler';

/** Stages the status does not already say (접수 and 취소 read the same as the status). */
const STAGE_BADGE: readonly TripStage[] = ['DISPATCHED', 'IN_PROGRESS', 'COMPLETED'];

interface Props {
  request: ButlerRequestView;
  /** e.g. "요청 #12" or "구독 #3". */
  caption: string;
  href: string;
  /** Where 수정하기 leads; no button without it (lists give it only while the request is PENDING). */
  editHref?: string;
  testId: string;
}

/**
 * One butler request or subscription in a list: status (and the trip's stage once a driver is
 * assigned), car, trip period and route; the card opens the detail. Long names and addresses wrap rather than being cut off; on a phone 수정하기 sits under
 * the text, a full 44 px target.
 */
export default function ButlerCard({ request: r, caption, href, editHref, testId }: Props) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4" data-testid={testId}>
      <a href={href} className="block min-w-0 flex-1">
        <span className="block text-xs text-muted">
          {caption} · {ORDER_STATUS_LABEL[r.status]}
          {STAGE_BADGE.includes(r.stage) && <span className="ml-2 inline-block bg-ink px-1.5 py-0.5 font-bold text-paper" data-testid="trip-stage-badge">{TRIP_STAGE_LABEL[r.stage]}</span>}
        </span>
        <span className="block break-words font-semibold">{butlerCarName(r.car)}</span>
        <span className="block text-sm">{tripPeriod(r.start_at, r.end_at)}</span>
        <span className="block break-words text-sm text-muted" data-testid="butler-route">{r.start_location} → {r.end_location}</span>
      </a>
      {editHref && (
        <a
          href={editHref}
          aria-label={`${caption} 수정하기`}
          className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center self-start border border-ink px-4 py-2 text-sm font-semibold sm:self-center"
        >
          수정하기
        </a>
      )}
    </div>
  );
}
