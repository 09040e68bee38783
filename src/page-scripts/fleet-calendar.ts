import { calendarMonth, lastBookableDay } from '../domain/butler-calendar';

/** One car's calendar on /fleet: the month shown, the reserved days and the chosen day. */
export interface CalendarState {
  year: number;
  /** 1–12. */
  month: number;
  reserved: string[];
  selected: string | null;
}

const WEEKDAYS = ['일', '월', '화', '수', '목', '금', '토'];

/** The month after (step 1) or before (step -1) a year and month. */
export function shiftMonth(year: number, month: number, step: number): { year: number; month: number } {
  const i = year * 12 + (month - 1) + step;
  return { year: Math.floor(i / 12), month: (i % 12) + 1 };
}

/** The calendar's markup: month header with arrows, weekday row and 42 day buttons; past, reserved and too-far days are disabled. */
export function calendarHtml(s: CalendarState, today: string): string {
  const last = lastBookableDay(today);
  const atFirst = `${s.year}-${String(s.month).padStart(2, '0')}` <= today.slice(0, 7);
  const atLast = `${s.year}-${String(s.month).padStart(2, '0')}` >= last.slice(0, 7);
  const cells = calendarMonth(s.year, s.month, today, s.reserved).map((c) => {
    const tooFar = c.date > last;
    const open = c.selectable && !tooFar;
    const note = c.reserved ? ' 예약 마감' : c.past ? ' 지난 날짜' : tooFar ? ' 예약 불가' : '';
    const [, m, d] = c.date.split('-').map(Number);
    // Days of the neighbouring months are told apart by a softer colour that still meets contrast.
    const tone = c.date === s.selected ? 'bg-ink text-paper' : c.reserved ? 'bg-reserved text-danger line-through' : open ? `hover:bg-paper ${c.inMonth ? '' : 'text-muted'}` : 'text-ink/30';
    return `<button type="button" data-day="${c.date}"${c.reserved ? ' data-reserved' : ''}${c.past ? ' data-past' : ''} ${open ? '' : 'disabled'} aria-pressed="${c.date === s.selected}" aria-label="${m}월 ${d}일${note}" class="h-11 min-w-11 text-sm ${tone}">${c.day}</button>`;
  });
  const nav = (dir: 'prev' | 'next', disabled: boolean, label: string, path: string) =>
    `<button type="button" data-month="${dir}" ${disabled ? 'disabled' : ''} aria-label="${label}" class="flex h-11 w-11 items-center justify-center disabled:opacity-30"><svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" aria-hidden="true"><path d="${path}"/></svg></button>`;
  return `<div class="border-y border-line px-2 py-3 md:border-x md:p-3">
    <div class="flex items-center justify-between">${nav('prev', atFirst, '이전 달', 'M15 5l-7 7 7 7')}<p class="text-sm font-semibold" data-month-label>${s.year}년 ${s.month}월</p>${nav('next', atLast, '다음 달', 'M9 5l7 7-7 7')}</div>
    <div class="mt-2 grid grid-cols-7 text-center text-xs text-muted" aria-hidden="true">${WEEKDAYS.map((w) => `<span>${w}</span>`).join('')}</div>
    <div class="mt-1 grid grid-cols-7 gap-0.5 text-center" data-days>${cells.join('')}</div>
    <p class="mt-2 flex gap-4 text-xs text-muted"><span><span class="mr-1 inline-block h-2.5 w-2.5 bg-reserved align-middle"></span>예약 마감</span><span><span class="mr-1 inline-block h-2.5 w-2.5 bg-ink align-middle"></span>선택</span></p>
  </div>`;
}
