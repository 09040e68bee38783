import type { ButlerPrefill } from '../butler-prefill';
import { fullDayHours } from './full-day';
import type { BookingState } from './state';

/** The reservation form's prefill from the chat's booking state (담당자 goes into the memo; a full day's hours set the end). */
export function stateToPrefill(state: BookingState): ButlerPrefill {
  const memo = [state.메모, state.담당자 ? `담당자: ${state.담당자}` : undefined].filter(Boolean).join(' / ');
  const prefill: ButlerPrefill = {
    carId: state['차량 번호'],
    date: state.날짜,
    time: state['탑승 시간'],
    hours: fullDayHours(state.메모) ?? undefined,
    origin: state.출발지,
    destination: state.목적지,
    waypoints: state.경유지?.length ? state.경유지 : undefined,
    passengers: state['탑승 인원'],
    purpose: state.목적,
    memo: memo || undefined,
  };
  for (const k of Object.keys(prefill) as (keyof ButlerPrefill)[]) if (prefill[k] === undefined) delete prefill[k];
  return prefill;
}
