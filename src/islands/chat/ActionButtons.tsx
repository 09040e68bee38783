import { prefillToSearch } from '../../domain/butler-prefill';
import { stateToPrefill } from '../../domain/chat/prefill';
import type { BookingState, UiTrigger } from '../../domain/chat/state';

/** The reservation form prefilled from the booking state. */
export const reserveHref = (state: BookingState) => {
  const search = prefillToSearch(stateToPrefill(state));
  return search ? `/butler/request?${search}` : '/butler/request';
};

const ACTIONS: Record<UiTrigger, { label: string; href: (s: BookingState) => string }> = {
  fleet: { label: '차량 보기', href: () => '/fleet' },
  pricing: { label: '요금 안내', href: () => '/fleet#pricing' },
  reserve: { label: '예약 신청서 열기', href: reserveHref },
  my: { label: '마이페이지', href: () => '/my' },
};

/** The action buttons a reply asked for (ui_triggers), as links. */
export default function ActionButtons({ triggers, state }: { triggers: UiTrigger[]; state: BookingState }) {
  if (!triggers.length) return null;
  return (
    <div className="mt-2 flex flex-wrap gap-2">
      {triggers.map((t) => (
        <a key={t} href={ACTIONS[t].href(state)} className="inline-flex min-h-11 items-center border border-ink px-3 text-xs font-semibold transition-colors hover:bg-ink hover:text-paper">
          {ACTIONS[t].label}
        </a>
      ))}
    </div>
  );
}
