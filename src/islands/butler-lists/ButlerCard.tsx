import { butlerCarName, statusLabel, tripPeriod } from './format';
import type { ButlerRequestView } from '../../domain/butler';

interface Props {
  request: ButlerRequestView;
  /** e.g. "요청 #12" or "구독 #3". */
  caption: string;
  href: string;
  /** Where 수정하기 leads; no button without it. */
  editHref?: string;
  testId: string;
}

/** One butler request or subscription in a list: car, trip period and route; the card opens the detail. */
export default function ButlerCard({ request: r, caption, href, editHref, testId }: Props) {
  return (
    <div className="flex items-center justify-between gap-4" data-testid={testId}>
      <a href={href} className="min-w-0 flex-1">
        <span className="block text-xs text-muted">{caption} · {statusLabel(r.status)}</span>
        <span className="block truncate font-semibold">{butlerCarName(r.car)}</span>
        <span className="block text-sm">{tripPeriod(r.start_at, r.end_at)}</span>
        <span className="block truncate text-sm text-muted">{r.start_location} → {r.end_location}</span>
      </a>
      {editHref && (
        <a href={editHref} aria-label={`${caption} 수정하기`} className="shrink-0 border border-ink px-4 py-2 text-sm">수정하기</a>
      )}
    </div>
  );
}
