import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { formatKoreaDateTime } from '../../domain/dates';
import type { DriverLocationAnswer, LocationConsentKind, LocationConsentText } from '../../domain/location';
import Alert from '../common/Alert';

export type ConsentChoice = Record<LocationConsentKind, boolean>;

const box = 'h-5 w-5 shrink-0 accent-ink';

/**
 * The two optional 위치정보 consents, each its own checkbox with its text behind 내용 보기
 * (docs/decisions/legal.md §5). The third party needs the terms: checking it checks the terms,
 * unchecking the terms unchecks it.
 */
export function ConsentChoices({ texts, value, onChange }: { texts: LocationConsentText[]; value: ConsentChoice; onChange: (v: ConsentChoice) => void }) {
  const set = (kind: LocationConsentKind, on: boolean) =>
    onChange(kind === 'terms' ? { terms: on, third_party: on && value.third_party } : { terms: value.terms || on, third_party: on });
  return (
    <fieldset className="space-y-3 border border-line bg-white p-4 text-sm" data-testid="location-consents">
      <legend className="px-1 font-semibold">위치정보 동의 (선택)</legend>
      <p className="text-muted">동의하지 않아도 운행 기록은 그대로 쓸 수 있습니다. 동의하면 운행 중(출발 ~ 운행 종료)에만 위치를 공유합니다.</p>
      {texts.map((t) => (
        <div key={t.kind} className="space-y-1">
          <label className="flex min-h-11 items-center gap-3">
            <input type="checkbox" className={box} name={`location_${t.kind}`} checked={value[t.kind]} onChange={(e) => set(t.kind, e.target.checked)} />
            <span>{t.title}</span>
          </label>
          <details className="pl-8">
            <summary className="flex min-h-11 cursor-pointer items-center text-muted underline">내용 보기 (버전 {t.version})</summary>
            <p className="whitespace-pre-line border-l-2 border-line pl-3 text-xs leading-relaxed">{t.text}</p>
          </details>
        </div>
      ))}
    </fieldset>
  );
}

const ROLE: Record<'customer' | 'staff', string> = { customer: '제공', staff: '이용' };

/**
 * /driver's 위치정보 section: whether sharing is on, a way to turn it on (the consents) or to
 * withdraw (which deletes the stored positions at once), and every read of the driver's position
 * kept (확인자료, 6 months). Tells the page whether positions may be sent.
 */
export function LocationPanel({ onConsent }: { onConsent: (collect: boolean) => void }) {
  const [data, setData] = useState<DriverLocationAnswer | null>(null);
  const [choice, setChoice] = useState<ConsentChoice>({ terms: false, third_party: false });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const show = useCallback(
    (d: DriverLocationAnswer) => {
      setData(d);
      setChoice({ terms: Boolean(d.consents.terms), third_party: Boolean(d.consents.third_party) });
      onConsent(Boolean(d.consents.terms));
    },
    [onConsent],
  );

  useEffect(() => {
    void call((o) => client.driver.location.$get({}, o)).then((r) => (r.ok ? show(r.data) : r.status !== 0 && setError(r.error.message)));
  }, [show]);

  async function save(json: Partial<ConsentChoice>, done: string) {
    setBusy(true);
    setError('');
    const r = await call((o) => client.driver.location.consents.$put({ json }, o));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    show(r.data);
    setEditing(false);
    setConfirming(false);
    setNotice(done);
  }

  if (!data) return error ? <Alert tone="box">{error}</Alert> : null;
  const on = Boolean(data.consents.terms);
  return (
    <section id="driver-location" aria-labelledby="driver-location-title" className="space-y-3 border border-line bg-white p-4" data-testid="driver-location">
      <h2 id="driver-location-title" className="font-bold">위치 공유</h2>
      <p data-testid="location-sharing-state">
        {on
          ? data.consents.third_party
            ? '켜짐 · 운행 중 위치를 배차 담당 직원과 예약 고객에게 공유합니다.'
            : '켜짐 · 운행 중 위치를 배차 담당 직원에게만 공유합니다 (고객 제공 미동의).'
          : '꺼짐 · 위치를 보내지 않습니다. 운행 기록은 그대로 쓸 수 있습니다.'}
      </p>
      {notice && <p role="status" className="text-sm text-muted">{notice}</p>}
      {error && <Alert tone="box">{error}</Alert>}
      {editing ? (
        <div className="space-y-3">
          <ConsentChoices texts={data.texts} value={choice} onChange={setChoice} />
          <button type="button" className="min-h-11 w-full bg-ink px-4 font-bold text-paper disabled:opacity-50" disabled={busy} onClick={() => void save(choice, '동의 내용을 저장했습니다.')}>저장</button>
          <button type="button" className="min-h-11 w-full border border-line px-4" onClick={() => setEditing(false)}>닫기</button>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" className="min-h-11 border border-ink px-4" onClick={() => { setEditing(true); setNotice(''); }}>{on ? '동의 내용 바꾸기' : '위치 공유 켜기'}</button>
          {on && !confirming && <button type="button" className="min-h-11 px-4 text-sm underline" onClick={() => setConfirming(true)}>동의 철회</button>}
        </div>
      )}
      {confirming && (
        <div className="space-y-2 border border-gold p-3 text-sm" role="alertdialog" aria-labelledby="withdraw-title">
          <p id="withdraw-title">철회하면 저장된 위치와 위치 이용·제공 내역이 바로 삭제되고, 다시 동의할 때까지 위치를 보내지 않습니다.</p>
          <div className="flex gap-2">
            <button type="button" className="min-h-11 bg-ink px-4 font-bold text-paper disabled:opacity-50" disabled={busy} onClick={() => void save({ terms: false, third_party: false }, '동의를 철회하고 저장된 위치를 삭제했습니다.')}>철회하기</button>
            <button type="button" className="min-h-11 border border-line px-4" onClick={() => setConfirming(false)}>취소</button>
          </div>
        </div>
      )}
      <details>
        <summary className="flex min-h-11 cursor-pointer items-center text-sm underline">내 위치 이용·제공 내역 ({data.reads.length}건, 최근 6개월)</summary>
        {data.reads.length === 0 ? (
          <p className="text-sm text-muted">아직 위치를 본 사람이 없습니다.</p>
        ) : (
          <ul className="divide-y divide-line text-sm" data-testid="location-reads">
            {data.reads.map((r) => (
              <li key={r.id} className="py-2">
                <p className="font-semibold">{r.reader} · {ROLE[r.reader_role]} · 운행 #{r.butler_request_id}</p>
                <p className="text-muted">{formatKoreaDateTime(r.first_read_at)}{r.last_read_at !== r.first_read_at ? ` ~ ${formatKoreaDateTime(r.last_read_at)}` : ''} · {r.reads}회</p>
                <p className="text-muted">{r.purpose}</p>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-2 text-xs text-muted">모아서 30일마다 이메일과 알림톡으로도 알려드립니다. 위치정보관리책임자: {data.officer.name} ({data.officer.email})</p>
      </details>
    </section>
  );
}
