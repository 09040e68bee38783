import { useState } from 'react';
import { call, client } from '../../client/api';

interface Consent {
  marketing: boolean;
  night: boolean;
}

/**
 * 수신 동의 on my page: marketing messages (events, offers) by email, and separately the night-time
 * ones (21:00–08:00, 정보통신망법 제50조③), each on or off at once through PUT /accounts. The
 * night-time switch needs the first; turning the first off ends both. Bookings and payments are
 * always told, whatever they say.
 */
export default function MarketingConsent({ initial, disabled = false }: { initial: Consent; disabled?: boolean }) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');

  async function change(next: Consent, json: { marketing_consent?: boolean; marketing_night_consent?: boolean }, done: string) {
    const before = on;
    setOn(next);
    setBusy(true);
    setNote('');
    const res = await call((o) => client.accounts.$put({ json }, o));
    setBusy(false);
    if (res.ok) return setNote(done);
    setOn(before);
    setNote('변경하지 못했습니다. 잠시 후 다시 시도해주세요.');
  }

  return (
    <div className="mt-4 space-y-2 border-t border-line pt-4">
      <Switch
        title="마케팅 정보 수신 동의"
        help="이벤트·혜택 소식을 이메일로 받습니다. 예약과 결제 안내는 동의와 관계없이 보내드립니다."
        id="marketing-consent"
        checked={on.marketing}
        disabled={busy || disabled}
        onChange={(v) => void change({ marketing: v, night: v && on.night }, { marketing_consent: v }, v ? '마케팅 정보 수신에 동의했습니다.' : '마케팅 정보 수신을 거부했습니다. 야간 수신 동의도 함께 철회되었습니다.')}
      />
      <Switch
        title="야간 광고 수신 동의 (21:00~08:00)"
        help="동의하지 않으면 밤 9시부터 아침 8시 사이의 광고 메시지는 아침 8시에 보내드립니다. 마케팅 정보 수신에 동의한 뒤 선택할 수 있습니다."
        id="marketing-night-consent"
        checked={on.night}
        disabled={busy || disabled || !on.marketing}
        onChange={(v) => void change({ ...on, night: v }, { marketing_night_consent: v }, v ? '야간 광고 수신에 동의했습니다.' : '야간 광고 수신을 거부했습니다.')}
      />
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-muted">{note}</p>
    </div>
  );
}

function Switch({ title, help, id, checked, disabled, onChange }: { title: string; help: string; id: string; checked: boolean; disabled: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center justify-between gap-4">
      <span>
        <span className="block font-semibold">{title}</span>
        <span id={`${id}-help`} className="block text-sm text-muted">{help}</span>
      </span>
      <input
        type="checkbox"
        role="switch"
        className="h-6 w-6 shrink-0 accent-ink"
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-help`}
        data-testid={id}
        onChange={(e) => onChange(e.target.checked)}
      />
    </label>
  );
}
