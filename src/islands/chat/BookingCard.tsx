import { useState } from 'react';
import { formatBookingValue, SHOWN_KEYS } from '../../domain/chat/format';
import { isEmptyState, nextMissing, REQUIRED_KEYS, type BookingKey, type BookingState, type BookingUpdates } from '../../domain/chat/state';
import { todayInKorea } from '../../domain/dates';
import { reserveHref } from './ActionButtons';
import FieldEditor from './FieldEditor';

/** The booking state as a summary card: each value can be corrected or removed; the hand-off to the form. */
export default function BookingCard({ state, onChange }: { state: BookingState; onChange: (u: BookingUpdates) => void }) {
  const [editing, setEditing] = useState<BookingKey | null>(null);
  const today = todayInKorea(new Date());
  const missing = REQUIRED_KEYS.filter((k) => state[k] === undefined);
  const save = (u: BookingUpdates) => {
    onChange(u);
    setEditing(null);
  };
  const remove = (key: BookingKey) => onChange(key === '차량' ? { 차량: null, '차량 번호': null } : { [key]: null });

  return (
    <aside id="booking-card" aria-labelledby="booking-card-title" className="scroll-mt-20 self-start border border-line bg-white p-4 text-sm">
      <h2 id="booking-card-title" className="font-semibold">예약 정보</h2>
      {isEmptyState(state) && <p className="mt-2 text-xs text-muted">대화에서 알려주신 내용이 여기에 정리됩니다.</p>}
      <dl className="mt-3 divide-y divide-line">
        {SHOWN_KEYS.map((key) => {
          const value = formatBookingValue(key, state[key], today);
          return (
            <div key={key} className="flex items-start justify-between gap-2 py-1" data-testid={`booking-${key}`}>
              <dt className="shrink-0 pt-3 text-xs text-muted">{key}</dt>
              <dd className="min-w-0 flex-1 text-right">
                {/* The actions are 44 px squares beside the value: comfortable taps on a phone. */}
                <span className="flex items-center justify-end gap-1">
                  <span className="min-w-0 break-words py-2 font-medium">{value || <span className="text-muted">-</span>}</span>
                  {editing !== key && (
                    <>
                      <button type="button" onClick={() => setEditing(key)} className="min-h-11 min-w-11 shrink-0 text-xs underline" aria-label={`${key} ${value ? '수정' : '입력'}`} data-testid="booking-action">{value ? '수정' : '입력'}</button>
                      {value && <button type="button" onClick={() => remove(key)} className="min-h-11 min-w-11 shrink-0 text-xs text-muted underline" aria-label={`${key} 삭제`} data-testid="booking-action">삭제</button>}
                    </>
                  )}
                </span>
                {editing === key && <FieldEditor field={key} state={state} onSave={save} onCancel={() => setEditing(null)} />}
              </dd>
            </div>
          );
        })}
      </dl>
      {!isEmptyState(state) && (
        <>
          <a href={reserveHref(state)} className="btn-primary mt-4 w-full">이 내용으로 예약하기</a>
          <p className="mt-2 text-xs text-muted">
            {nextMissing(state) ? `남은 항목: ${missing.join(', ')} (신청서에서도 입력할 수 있습니다)` : '결제와 최종 확인은 예약 신청서에서 진행됩니다.'}
          </p>
        </>
      )}
    </aside>
  );
}
