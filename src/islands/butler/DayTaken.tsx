import { useEffect, useRef } from 'react';

interface Props {
  /** Moves focus to the start time. */
  onChangeDate: () => void;
  /** Moves focus to the car choice. */
  onChangeCar: () => void;
}

/**
 * The race loser's answer: another booking took the day between the form and the card step.
 * The API refused before any charge (409), so nothing was paid; the form is kept and other
 * days or cars are offered. Takes focus when it appears so it is seen and read out.
 */
export default function DayTaken({ onChangeDate, onChangeCar }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const button = 'min-h-11 border border-red-800 px-4 py-2 text-sm font-semibold';
  return (
    <div ref={ref} tabIndex={-1} role="alert" className="border border-red-300 bg-red-50 p-4 text-red-800 outline-none" data-testid="day-taken">
      <p className="font-semibold">방금 다른 고객이 선택하신 날짜를 먼저 예약했습니다.</p>
      <p className="mt-1 text-sm">예약은 접수되지 않았고 결제되지 않았습니다. 쿠폰과 포인트도 사용되지 않았습니다.</p>
      <p className="mt-1 text-sm">입력하신 내용은 그대로 남아 있으니 다른 날짜나 차량을 선택해 다시 요청해주세요.</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" onClick={onChangeDate} className={button}>날짜 변경하기</button>
        <button type="button" onClick={onChangeCar} className={button}>다른 차량 선택하기</button>
        <a href="/fleet" className={`${button} inline-flex items-center`}>차량별 예약 현황 보기</a>
      </div>
    </div>
  );
}
