import { weekday } from '../dates';
import type { BookingKey, BookingState } from './state';

const WEEKDAY_KO = ['일', '월', '화', '수', '목', '금', '토'];

/** A day in Korean: "3월 12일 (목)", with the year when it is not this year's. */
export function formatDateKo(date: string, today?: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const wd = WEEKDAY_KO[weekday(date)];
  const year = today && today.slice(0, 4) === date.slice(0, 4) ? '' : `${y}년 `;
  return `${year}${m}월 ${d}일 (${wd})`;
}

/** A wall-clock time in Korean: "오후 2시 30분", "오전 9시". */
export function formatTimeKo(time: string): string {
  const [h, min] = time.split(':').map(Number);
  const half = h < 12 ? '오전' : '오후';
  const h12 = h % 12 === 0 ? (h === 0 ? 0 : 12) : h % 12;
  return `${half} ${h12}시${min ? ` ${min}분` : ''}`;
}

/** One state value as the chat and the summary card show it. */
export function formatBookingValue(key: BookingKey, value: BookingState[BookingKey], today?: string): string {
  if (value === undefined || value === null) return '';
  if (key === '날짜') return formatDateKo(String(value), today);
  if (key === '탑승 시간') return formatTimeKo(String(value));
  if (key === '탑승 인원') return `${String(value)}명`;
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** Keys shown to people, in the order of the summary card (차량 번호 is the car's id, kept out of sight). */
export const SHOWN_KEYS: readonly BookingKey[] = ['날짜', '탑승 시간', '출발지', '경유지', '목적지', '탑승 인원', '차량', '목적', '담당자', '메모'];
