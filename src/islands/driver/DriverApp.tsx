import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { call, client } from '../../client/api';
import { $session, clearSession } from '../../stores/session';
import { storeLogin } from '../auth/session-helpers';
import Alert from '../common/Alert';
import { formatKoreaDateTime } from '../../domain/dates';
import type { DriverTrip, DriverTripsAnswer } from '../../domain/driver-day';
import { addTap, flushTaps, loadTaps, saveTaps, type PendingTap, type SendResult } from './tap-queue';
import { serverClockOf, type ServerClock } from './server-clock';
import TripCard from './TripCard';
import DriverHandovers from './DriverHandovers';
import DriverNotices from './DriverNotices';
import PastTrips from './PastTrips';
import { groupByDay } from '../../domain/driver-notices';
import { usePositionSharing } from './usePositionSharing';
import { ConsentChoices, LocationPanel, type ConsentChoice } from './LocationConsent';
import type { LocationConsentText } from '../../domain/location';

interface Props {
  /** The office's number (the driver calls it to be put through to a passenger). */
  officePhone: string;
}

/**
 * The driver's phone (/driver): an invite link signs the driver up, a driver signs in, then sees
 * their notices, their trips of the coming 7 days by day and their past trips, and taps 출발 → 도착 → 탑승 → 운행 종료. A tap that finds no
 * connection waits in local storage and is sent when the phone is back online.
 */
export default function DriverApp({ officePhone }: Props) {
  const session = useStore($session);
  const [invite, setInvite] = useState<string | null>(null);
  useEffect(() => setInvite(new URLSearchParams(location.search).get('invite')), []);
  if (invite) return <AcceptInvite code={invite} onDone={() => { history.replaceState(null, '', '/driver'); setInvite(null); }} />;
  if (!session.accessToken && !session.refreshToken) return <DriverLogin />;
  return <DriverDay officePhone={officePhone} />;
}

const input = 'mt-1 block min-h-11 w-full border border-line bg-white px-3 text-base';
const primary = 'min-h-14 w-full bg-ink px-4 text-lg font-bold text-paper disabled:opacity-50';

function AcceptInvite({ code, onDone }: { code: string; onDone: () => void }) {
  const [info, setInfo] = useState<{ driver_name: string; channel: 'phone' | 'email'; email: string | null } | null>(null);
  const [texts, setTexts] = useState<LocationConsentText[]>([]);
  const [consent, setConsent] = useState<ConsentChoice>({ terms: false, third_party: false });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  useEffect(() => {
    void call((o) => client.driver.invites[':code'].$get({ param: { code } }, o)).then((r) => {
      if (!r.ok) return setError(r.error.message);
      setInfo(r.data.invite);
      setTexts(r.data.location_texts);
    });
  }, [code]);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const r = await call((o) => client.driver.invites.accept.$post({ json: { code, password, ...(info?.email ? {} : { email }), location_terms: consent.terms, location_third_party: consent.third_party } }, o));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    storeLogin(r.data);
    onDone();
  }
  return (
    <section aria-labelledby="invite-title" className="space-y-4">
      <h2 id="invite-title" className="text-xl font-bold">기사 계정 만들기</h2>
      {error && <Alert tone="box">{error}</Alert>}
      {info && (
        <form onSubmit={(e) => void submit(e)} className="space-y-4">
          <p>{info.driver_name} 기사님, 로그인에 쓸 {info.email ? '비밀번호를' : '이메일과 비밀번호를'} 정해주세요.</p>
          <label className="block">
            이메일
            {info.email ? <input className={input} value={info.email} readOnly /> : <input className={input} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
          </label>
          <label className="block">
            비밀번호 (6자 이상)
            <input className={input} type="password" autoComplete="new-password" minLength={6} required value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          {texts.length > 0 && <ConsentChoices texts={texts} value={consent} onChange={setConsent} />}
          <button type="submit" className={primary} disabled={busy}>{busy ? '만드는 중...' : '계정 만들기'}</button>
        </form>
      )}
    </section>
  );
}

function DriverLogin() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const r = await call((o) => client.accounts.login.$post({ json: { email, password } }, o));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    storeLogin(r.data);
  }
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" aria-labelledby="driver-login-title">
      <h2 id="driver-login-title" className="text-xl font-bold">기사 로그인</h2>
      {error && <Alert tone="box">{error}</Alert>}
      <label className="block">
        이메일
        <input className={input} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label className="block">
        비밀번호
        <input className={input} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <button type="submit" className={primary} disabled={busy}>{busy ? '로그인 중...' : '로그인'}</button>
      <p className="text-sm text-muted">계정이 없으면 사무실에 초대를 요청해주세요.</p>
    </form>
  );
}

function DriverDay({ officePhone }: Props) {
  const [answer, setAnswer] = useState<DriverTripsAnswer | null>(null);
  // The server's time of the last answer, carried on monotonically: a wait on the phone is counted from it.
  const [clock, setClock] = useState<ServerClock | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [pending, setPending] = useState<PendingTap[]>([]);
  const flushing = useRef(false);

  const [loads, setLoads] = useState(0);
  const load = useCallback(async () => {
    const r = await call((o) => client.driver.trips.$get({}, o));
    if (r.ok) {
      setAnswer(r.data);
      setClock(serverClockOf(r.data.now));
      setLoads((n) => n + 1);
      setError('');
    } else if (r.status !== 0) setError(r.error.message);
  }, []);

  const send = useCallback(async (tap: PendingTap): Promise<SendResult> => {
    const r = await call((o) => client.driver.trips[':id'].stages[':stage'].$post({ param: { id: String(tap.trip_id), stage: tap.stage }, json: { tapped_at: tap.tapped_at } }, o));
    if (r.ok) return { kind: 'done' };
    return r.status === 0 || r.status >= 500 ? { kind: 'offline' } : { kind: 'refused', message: r.error.message };
  }, []);

  const flush = useCallback(async () => {
    if (flushing.current) return;
    const waiting = loadTaps(localStorage);
    if (!waiting.length) return;
    flushing.current = true;
    const { left, refused } = await flushTaps(waiting, send);
    // Taps made while this run was sending stay behind the ones it kept.
    const added = loadTaps(localStorage).filter((t) => !waiting.some((w) => w.trip_id === t.trip_id && w.stage === t.stage));
    const now = [...left, ...added];
    saveTaps(localStorage, now);
    setPending(now);
    flushing.current = false;
    if (refused.length) setError(refused.join(' '));
    setNotice(now.length ? '연결이 끊겨 전송하지 못한 기록이 있습니다. 연결되면 자동으로 보냅니다.' : '');
    await load();
  }, [load, send]);

  useEffect(() => {
    setPending(loadTaps(localStorage));
    void load().then(flush);
    const online = () => void flush();
    window.addEventListener('online', online);
    const timer = setInterval(() => void flush(), 15_000);
    return () => {
      window.removeEventListener('online', online);
      clearInterval(timer);
    };
  }, [load, flush]);

  function tapStage(trip: DriverTrip, stage: NonNullable<DriverTrip['next_stage']>) {
    setError('');
    const next = addTap(loadTaps(localStorage), { trip_id: trip.id, stage, tapped_at: new Date().toISOString() });
    saveTaps(localStorage, next);
    setPending(next);
    void flush();
  }

  const active = answer?.trips.find((t) => t.times.departed && !t.times.ended && !pending.some((p) => p.trip_id === t.id && p.stage === 'ended')) ?? null;
  // Positions go only with the driver's consent to the 위치정보 terms (null until known: nothing is sent).
  const [collect, setCollect] = useState<boolean | null>(null);
  const onConsent = useCallback((on: boolean) => setCollect(on), []);
  const sharing = usePositionSharing(active && collect ? active.id : null);
  const panel = <LocationPanel onConsent={onConsent} />;

  if (error && !answer) {
    return (
      <div className="space-y-4">
        <Alert tone="box">{error}</Alert>
        <button type="button" className="min-h-11 border border-ink px-4" onClick={() => { clearSession(); location.reload(); }}>다른 계정으로 로그인</button>
      </div>
    );
  }
  if (!answer) return <p role="status" className="text-muted">운행을 불러오는 중...</p>;
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-2">
        <p className="font-semibold">{answer.driver.name} 기사님</p>
        <button type="button" className="min-h-11 px-3 text-sm text-muted underline" onClick={() => void load()}>새로고침</button>
      </div>
      {notice && <p role="status" className="border border-gold bg-paper px-3 py-2 text-sm" data-testid="offline-notice">{notice}</p>}
      {error && <Alert tone="box">{error}</Alert>}
      {active && (
        <p role="status" className="text-sm text-muted" data-testid="position-status">
          {collect ? sharing : collect === false ? <>위치 공유가 꺼져 있어 위치를 보내지 않습니다. <a className="underline" href="#driver-location">위치 공유 켜기</a></> : ''}
        </p>
      )}
      <DriverNotices reloadKey={loads} />
      {answer.trips.length === 0 ? (
        <p className="border border-line bg-white p-5 text-muted">앞으로 7일 동안 배정된 운행이 없습니다.</p>
      ) : (
        groupByDay(answer.trips, answer.today).map((g) => (
          <section key={g.day} aria-label={g.heading} data-testid="driver-day" data-day={g.day} className="space-y-3">
            <h2 className="text-base font-bold" data-testid="driver-day-heading">{g.heading} <span className="text-sm font-normal text-muted">{g.trips.length}건</span></h2>
            <ol className="space-y-4">
              {g.trips.map((t) => (
                <li key={t.id}>
                  <TripCard
                    trip={t} today={answer.today} pending={pending.filter((p) => p.trip_id === t.id)} onTap={(stage) => tapStage(t, stage)} officePhone={officePhone}
                    waiting={clock ? { clock, policy: answer.waiting_policy } : null}
                  />
                </li>
              ))}
            </ol>
          </section>
        ))
      )}
      {answer.cancelled.length > 0 && (
        <section aria-label="취소된 운행" className="border border-red-300 bg-red-50 p-4 text-sm" data-testid="driver-cancelled">
          <h2 className="font-bold text-red-800">취소된 운행</h2>
          <ul className="mt-1 space-y-1">
            {answer.cancelled.map((c) => (
              <li key={c.id}>{formatKoreaDateTime(c.start_at)} {c.start_location} 출발 (#{c.id}) · 출발하지 않으셔도 됩니다.</li>
            ))}
          </ul>
        </section>
      )}
      <DriverHandovers />
      <PastTrips />
      {panel}
    </div>
  );
}
