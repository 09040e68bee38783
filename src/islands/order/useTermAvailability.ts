import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchAvailability } from '../../client/availability';
import { shorterTermNote, type CarAvailability } from '../../domain/availability';
import { dotDate } from '../../domain/dates';

/** The refusal of a start the term does not fit from: said on the order page where 구독 가능 stood (never both). */
function startRefusal(a: CarAvailability): string {
  const note = shorterTermNote(a);
  return `선택하신 시작일(${dotDate(a.start)})부터는 ${a.month}개월 구독을 할 수 없습니다. ${dotDate(a.next_start)}부터 구독 가능${note ? ` · ${note}` : ''}`;
}

/**
 * The order page's availability for its term and chosen start (docs/decisions/availability.md):
 * read once for the term (the start field defaults to the earliest start that fits), again for
 * every chosen start, and `check` reads it fresh before the card window opens. `line` is 구독 가능
 * or the refusal, never both.
 */
export function useTermAvailability(carId: number | null, month: number, startDate: string) {
  const [first, setFirst] = useState<CarAvailability | null>(null);
  const [read, setRead] = useState(!carId);
  const [current, setCurrent] = useState<{ start: string; a: CarAvailability | null } | null>(null);
  const asked = useRef('');
  useEffect(() => {
    if (!carId) return;
    void fetchAvailability([carId], { month: month || null }).then((found) => {
      setFirst(found.get(carId) ?? null);
      setRead(true);
    });
  }, [carId, month]);
  const judge = useCallback(
    async (start: string, fresh = false) => {
      if (!carId) return null;
      asked.current = start;
      const a = (await fetchAvailability([carId], { month: month || null, start }, undefined, fresh)).get(carId) ?? null;
      if (asked.current === start) setCurrent({ start, a });
      return a;
    },
    [carId, month],
  );
  useEffect(() => {
    if (startDate) void judge(startDate);
  }, [startDate, judge]);
  // Only a read judged for the chosen start speaks (the first read is for the earliest start): no refusal flashes while the start is read.
  const shown = current && current.start === startDate ? current.a : first && (!startDate || first.start === startDate) ? first : null;
  const refused = shown && shown.month !== null && !shown.free ? startRefusal(shown) : null;
  // A car taken at the earliest start, free from the chosen one: the line names that day.
  // The first read's earliest start fits by definition: while that start is read again the line
  // already names it (a blank line filled in later, two lines on a phone, moved the page).
  const earliest = !shown && first && !first.free && first.month !== null && startDate === first.available_from ? first.text : '';
  const text = shown && shown.free && shown.month !== null && first && !first.free ? `${dotDate(shown.start)}부터 구독 가능` : (shown?.text ?? earliest);
  /** Before the card window: true when the term fits from the chosen start now (read past any cache). */
  const check = useCallback(async (start: string) => {
    const a = await judge(start, true);
    return !a || a.month === null || a.free;
  }, [judge]);
  return { first, read, line: refused ?? text, refused, check, recheck: () => (startDate ? judge(startDate, true) : null) };
}
