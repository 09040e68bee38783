/**
 * Spans of time in Korean words (see ./index.ts): the one home of "N시간 M분" and "N분 전".
 * A zero part is left out (8시간, not 8시간 0분), and a span with no hours is said in 분 alone.
 */

/** Minutes as a person reads them: 9시간 20분, 8시간, 45분, 0분. */
export function durationText(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  if (h === 0) return `${m}분`;
  return m ? `${h}시간 ${m}분` : `${h}시간`;
}

/** Fractional hours (9.5) in the same words: 9시간 30분. */
export function hoursText(hours: number): string {
  return durationText(hours * 60);
}

/** How long something has waited, from seconds: 45초 under a minute, then whole minutes (3분, 2시간 5분). */
export function elapsedText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return s < 60 ? `${s}초` : durationText(Math.floor(s / 60));
}

/**
 * How long ago, to the second while it is fresh: 방금 (under 5 s), 12초 전, 3분 20초 전, then
 * 1시간 5분 전 (seconds dropped past the hour).
 */
export function agoText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 5) return '방금';
  if (s < 60) return `${s}초 전`;
  if (s < 3_600) return `${Math.floor(s / 60)}분${s % 60 ? ` ${s % 60}초` : ''} 전`;
  return `${durationText(Math.floor(s / 60))} 전`;
}
