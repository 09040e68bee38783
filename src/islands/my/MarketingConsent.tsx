import { useState } from 'react';
import { call, client } from '../../client/api';

/**
 * 수신 동의 on my page: marketing messages (events, offers) by email, on or off at once through
 * PUT /accounts {marketing_consent}. Bookings and payments are always told, whatever it says.
 */
export default function MarketingConsent({ initial, disabled = false }: { initial: boolean; disabled?: boolean }) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');

  async function change(next: boolean) {
    setOn(next);
    setBusy(true);
    setNote('');
    const res = await call((o) => client.accounts.$put({ json: { marketing_consent: next } }, o));
    setBusy(false);
    if (res.ok) return setNote(next ? '마케팅 정보 수신에 동의했습니다.' : '마케팅 정보 수신을 거부했습니다.');
    setOn(!next);
    setNote('변경하지 못했습니다. 잠시 후 다시 시도해주세요.');
  }

  return (
    <div className="mt-4 border-t border-line pt-4">
      <label className="flex min-h-11 cursor-pointer items-center justify-between gap-4">
        <span>
          <span className="block font-semibold">마케팅 정보 수신 동의</span>
          <span id="marketing-consent-help" className="block text-sm text-muted">이벤트·혜택 소식을 이메일로 받습니다. 예약과 결제 안내는 동의와 관계없이 보내드립니다.</span>
        </span>
        <input
          type="checkbox"
          role="switch"
          className="h-6 w-6 shrink-0 accent-ink"
          checked={on}
          disabled={busy || disabled}
          aria-describedby="marketing-consent-help"
          data-testid="marketing-consent"
          onChange={(e) => void change(e.target.checked)}
        />
      </label>
      <p role="status" aria-live="polite" className="mt-1 min-h-5 text-sm text-muted">{note}</p>
    </div>
  );
}
