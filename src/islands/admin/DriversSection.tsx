import { useCallback, useEffect, useState } from 'react';
import { formatPhone } from '../../domain/accounts';
import { todayInKorea } from '../../domain/dates';
import { LOW_RATING_MAX, type Driver, type DriverRatingSummary, type StaffTripRating } from '../../domain/dispatch';
import { DriverSchema } from '../../domain/schemas/dispatch';
import { call, client } from '../../client/api';
import { announceChange, fieldErrorsOf, formatDateTime } from './admin-api';
import { GENDER_LABEL } from './dispatch-board';
import DriverForm, { type DriverFields } from './DriverForm';
import DriverInvite from './DriverInvite';

/** Days off from today on (past ones stay stored but say nothing to the roster). */
const upcoming = (days: string[]) => days.filter((d) => d >= todayInKorea(new Date()));

/** Zod's issues keyed by field as the API's 422 reads them, with the first one for the whole form. */
function issuesByField(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = { _: [issues[0]?.message ?? '입력을 확인해주세요.'] };
  for (const i of issues) (out[i.path.map(String).join('.') || '_'] ??= []).push(i.message);
  return out;
}

/** 기사: the roster (active first) with each driver's customer rating (average and count), 기사 추가, 편집 and 활성화/비활성화. Drivers are never deleted. */
export default function DriversSection() {
  const [drivers, setDrivers] = useState<Driver[] | null>(null);
  const [ratings, setRatings] = useState<Map<number, DriverRatingSummary>>(new Map());
  const [reviews, setReviews] = useState<StaffTripRating[]>([]);
  const [editing, setEditing] = useState<Driver | 'new' | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const load = useCallback(async () => {
    const [res, rated] = await Promise.all([call((o) => client.admin.drivers.$get({}, o)), call((o) => client.admin['trip-ratings'].$get({}, o))]);
    if (res.ok) {
      setDrivers(res.data.drivers);
      setRatings(new Map(res.data.ratings.map((r) => [r.driver_id, r])));
    } else setMessage(res.error.message);
    if (rated.ok) setReviews(rated.data.ratings);
  }, []);
  useEffect(() => void load(), [load]);

  const open = (d: Driver | 'new') => {
    setErrors({});
    setMessage(null);
    setEditing(d);
  };
  /** Checked here with the API's own schema first (the same Korean messages), then sent whole. */
  const save = async (fields: DriverFields) => {
    const parsed = DriverSchema.safeParse(fields);
    if (!parsed.success) return setErrors(issuesByField(parsed.error.issues));
    setBusy(true);
    const res = editing === 'new' || !editing ? await call((o) => client.admin.drivers.$post({ json: parsed.data }, o)) : await call((o) => client.admin.drivers[':id'].$patch({ param: { id: String(editing.id) }, json: parsed.data }, o));
    setBusy(false);
    if (!res.ok) return setErrors(fieldErrorsOf(res));
    announceChange();
    setEditing(null);
    setMessage(`${res.data.driver.name} 기사를 저장했습니다.`);
    await load();
  };
  const setActive = async (d: Driver, active: boolean) => {
    const res = await call((o) => client.admin.drivers[':id'].$patch({ param: { id: String(d.id) }, json: { active } }, o));
    if (res.ok) announceChange();
    setMessage(res.ok ? `${d.name} 기사를 ${active ? '활성화' : '비활성화'}했습니다.` : res.error.message);
    await load();
  };

  return (
    <section aria-label="기사" className="space-y-4">
      {!editing && (
        <button type="button" className="btn-primary min-h-11 px-4 py-2" onClick={() => open('new')}>
          기사 추가
        </button>
      )}
      {editing && <DriverForm key={editing === 'new' ? 'new' : editing.id} driver={editing === 'new' ? null : editing} errors={errors} busy={busy} onSave={(f) => void save(f)} onCancel={() => setEditing(null)} />}
      {message && <p role="status" className="text-sm text-muted">{message}</p>}
      {!drivers && <p className="text-sm text-muted">불러오는 중…</p>}
      {drivers && !drivers.length && <p className="text-sm text-muted">등록된 기사가 없습니다.</p>}
      <ul className="divide-y divide-line border-y border-line" data-testid="driver-list">
        {drivers?.map((d) => {
          const off = upcoming(d.days_off);
          const rating = ratings.get(d.id);
          return (
            <li key={d.id} aria-label={d.name} className="flex flex-wrap items-center gap-3 py-3 text-sm">
              <div className="min-w-0 flex-1">
                <p className="font-semibold">
                  {d.name} <span className="text-muted">({GENDER_LABEL[d.gender]}) · <span className="whitespace-nowrap">{formatPhone(d.phone)}</span></span>{' '}
                  <span className={`ml-1 inline-block px-1.5 py-0.5 text-xs font-bold ${d.active ? 'bg-ink text-paper' : 'bg-line text-ink'}`}>{d.active ? '활성' : '비활성'}</span>
                </p>
                <p className="break-words text-muted">
                  면허 {d.licence_classes.length ? d.licence_classes.join(', ') : '미입력'} · 휴무일 {off.length ? off.join(', ') : '없음'}
                </p>
                <p data-testid="driver-rating">
                  고객 평가{' '}
                  {rating ? (
                    <span className="font-semibold">
                      평균 {rating.average.toFixed(1)}점 <span className="font-normal text-muted">({rating.count}건)</span>
                    </span>
                  ) : (
                    <span className="text-muted">아직 없음</span>
                  )}
                </p>
                {d.memo && <p className="whitespace-pre-line break-words text-muted">{d.memo}</p>}
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                <button type="button" aria-label={`${d.name} 편집`} className="btn-outline min-h-11 px-3 py-1.5" onClick={() => open(d)}>
                  편집
                </button>
                {d.active && <DriverInvite driver={d} onDone={setMessage} />}
                <button type="button" aria-label={`${d.name} ${d.active ? '비활성화' : '활성화'}`} className="min-h-11 border border-line px-3 py-1.5 font-semibold" onClick={() => void setActive(d, !d.active)}>
                  {d.active ? '비활성화' : '활성화'}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <TripReviews reviews={reviews} />
    </section>
  );
}

/** 최근 고객 평가: each rating with its trip and driver, and what the customer wrote ("기사님께 전하고 싶은 말"); low ones stand out. */
function TripReviews({ reviews }: { reviews: StaffTripRating[] }) {
  return (
    <section aria-label="최근 고객 평가" className="space-y-2">
      <h3 className="font-semibold">최근 고객 평가</h3>
      {!reviews.length && <p className="text-sm text-muted">아직 평가가 없습니다.</p>}
      <ul className="divide-y divide-line border-y border-line text-sm" data-testid="trip-reviews">
        {reviews.map((r) => (
          <li key={r.id} className="py-2" data-low={r.score <= LOW_RATING_MAX || undefined}>
            <p className={r.score <= LOW_RATING_MAX ? 'font-semibold text-red-700' : 'font-semibold'}>
              {r.score}점 · 요청 #{r.butler_request_id} · {formatDateTime(r.start_at)} {r.start_location} · {r.driver ? `${r.driver.name} 기사` : '기사 없음'}
            </p>
            <p className="whitespace-pre-line break-words text-muted">{r.comment ?? '의견 없음'}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
