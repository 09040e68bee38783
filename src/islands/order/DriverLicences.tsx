import { useId, useState } from 'react';
import { dotDate, koreaDate } from '../../domain/dates';
import { VALIDATION_CODE } from '../../domain/error-codes';
import { LICENCE_TYPE_LABEL, LICENCE_TYPES, licenceRuleLines, type LicenceRole, type LicenceType, type LicenceView } from '../../domain/licence';
import Alert from '../common/Alert';
import type { Licences } from './useLicences';

interface Props {
  licences: Licences;
  /** How many additional drivers the options name. */
  extraCount: number;
  /** The checked licence chosen for each additional driver, by position. */
  extraIds: readonly (number | undefined)[];
  onExtraIds: (ids: (number | undefined)[]) => void;
}

/** The newest check of the customer's own licence (the list is newest first). */
export const holderLicence = (list: readonly LicenceView[] | null) => list?.find((l) => l.role === 'HOLDER') ?? null;

/**
 * 운전면허 확인 on the order page (docs/decisions/legal.md §1): the customer's licence and one per
 * additional driver, each checked with the 운전자격확인시스템 before the card window opens.
 */
export default function DriverLicences({ licences, extraCount, extraIds, onExtraIds }: Props) {
  const list = licences.list ?? [];
  const holder = holderLicence(list);
  const usable = list.filter((l) => l.role === 'EXTRA' && l.status === 'VALID');
  const setSlot = (i: number, id: number | undefined) => onExtraIds(Array.from({ length: extraCount }, (_, n) => (n === i ? id : extraIds[n])));
  return (
    <section aria-labelledby="licence-h" className="space-y-4" data-testid="order-licences">
      <h2 id="licence-h" className="font-semibold">운전면허 확인</h2>
      <p className="text-xs text-muted">
        여객자동차 운수사업법에 따라 계약자와 추가 운전자 모두의 운전면허를 도로교통공단 운전자격확인시스템으로 확인합니다. 면허번호는 암호화해 보관하며 다시 전체를 표시하지 않고,
        차량 인도 전에 한 번 더 확인합니다.
      </p>
      {/* The age and new-driver rules the server applies (its LICENCE_NEW_DRIVER comes with the list). */}
      <ul className="list-disc space-y-0.5 pl-4 text-xs text-muted" data-testid="order-licence-rules">
        {licenceRuleLines(licences.policy).slice(1, 4).map((line) => <li key={line}>{line}</li>)}
      </ul>
      <div className="space-y-2 border border-line p-3">
        <h3 className="text-sm font-semibold">계약자 본인</h3>
        {holder && <LicenceCard licence={holder} testId="holder-licence" />}
        {holder?.status !== 'VALID' && <LicenceForm role="HOLDER" licences={licences} />}
      </div>
      {Array.from({ length: extraCount }, (_, i) => {
        const chosen = usable.find((l) => l.id === extraIds[i]);
        const free = usable.filter((l) => !extraIds.includes(l.id));
        return (
          <div key={i} className="space-y-2 border border-line p-3" data-testid={`extra-licence-${i + 1}`}>
            <h3 className="text-sm font-semibold">추가 운전자 {i + 1}</h3>
            {chosen ? (
              <>
                <LicenceCard licence={chosen} />
                <button type="button" onClick={() => setSlot(i, undefined)} className="min-h-11 text-sm underline">다른 운전자로 변경</button>
              </>
            ) : (
              <>
                {free.length > 0 && (
                  <div className="flex flex-wrap gap-2">
                    {free.map((l) => (
                      <button key={l.id} type="button" onClick={() => setSlot(i, l.id)} className="min-h-11 border border-line px-3 text-sm">
                        {l.name} ({l.number}) 선택
                      </button>
                    ))}
                  </div>
                )}
                <LicenceForm role="EXTRA" licences={licences} onChecked={(l) => setSlot(i, l.id)} />
              </>
            )}
          </div>
        );
      })}
    </section>
  );
}

function LicenceCard({ licence: l, testId }: { licence: LicenceView; testId?: string }) {
  const ok = l.status === 'VALID';
  return (
    <p className="text-sm" data-testid={testId} data-status={l.status}>
      {l.name} · {l.type_label} · {l.number}{' '}
      <strong className={ok ? 'text-ink' : 'text-danger'}>{l.status_text}</strong>
      {ok && l.expires_on && <span className="block text-xs text-muted"> (갱신 기한 {dotDate(l.expires_on)} · {dotDate(koreaDate(l.checked_at))} 확인)</span>}
    </p>
  );
}

/** One licence to check: the number and class, and for an additional driver the name and birth date on it. */
function LicenceForm({ role, licences, onChecked }: { role: LicenceRole; licences: Licences; onChecked?: (l: LicenceView) => void }) {
  const id = useId();
  const [number, setNumber] = useState('');
  const [type, setType] = useState<LicenceType>('CLASS2_ORDINARY');
  const [name, setName] = useState('');
  const [birth, setBirth] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const extra = role === 'EXTRA';
  async function submit() {
    setSending(true);
    setError(null);
    const r = await licences.register({ role, number, type, ...(extra ? { name, birth_date: birth } : {}) });
    setSending(false);
    if (!r.ok) {
      // A malformed field says which (400); a check the system refused says why (422).
      const fields = [...new Set(Object.values(r.error.errors ?? {}).flat())];
      setError(r.error.code === VALIDATION_CODE && fields.length ? fields.join(' ') : r.error.message);
      return;
    }
    setNumber('');
    onChecked?.(r.licence);
  }
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {extra && (
        <div className="grid gap-2 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-name`} className="mb-1 block text-xs font-semibold">이름 (면허증 기재)</label>
            <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={80} autoComplete="off" className="field" required />
          </div>
          <div>
            <label htmlFor={`${id}-birth`} className="mb-1 block text-xs font-semibold">생년월일</label>
            <input id={`${id}-birth`} type="date" value={birth} onChange={(e) => setBirth(e.target.value)} className="field" required />
          </div>
        </div>
      )}
      <div className="grid gap-2 sm:grid-cols-[1fr_2fr]">
        <div>
          <label htmlFor={`${id}-type`} className="mb-1 block text-xs font-semibold">면허 종류</label>
          <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as LicenceType)} className="field">
            {LICENCE_TYPES.map((t) => <option key={t} value={t}>{LICENCE_TYPE_LABEL[t]}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-number`} className="mb-1 block text-xs font-semibold">면허번호</label>
          <input id={`${id}-number`} value={number} onChange={(e) => setNumber(e.target.value)} inputMode="numeric" autoComplete="off" placeholder="11-23-123456-01" maxLength={30} className="field" required />
        </div>
      </div>
      {!extra && <p className="text-xs text-muted">성명과 생년월일은 본인인증 정보로 확인합니다.</p>}
      {error && <Alert>{error}</Alert>}
      <button type="submit" disabled={sending} className="min-h-11 w-full border border-ink px-4 text-sm font-semibold disabled:opacity-40">
        {sending ? '확인 중...' : '면허 확인'}
      </button>
    </form>
  );
}
