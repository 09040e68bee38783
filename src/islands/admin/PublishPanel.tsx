import { useCallback, useEffect, useState } from 'react';
import type { PublishStatusView } from '../../domain/console';
import { elapsedText } from '../../domain/dates';
import { call, client } from '../../client/api';
import { CHANGED_EVENT, formatDateTime } from './admin-api';

/** Poll every 3 s while a build runs or the site is behind the catalogue; every 30 s otherwise. */
const FAST_MS = 3000;
const SLOW_MS = 30_000;

const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)}초`);

/** The site's publish state: build in progress, last published version, a failed build's error, and 지금 게시. */
export default function PublishPanel({ canPublish }: { canPublish: boolean }) {
  const [status, setStatus] = useState<PublishStatusView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const refresh = useCallback(async () => {
    const res = await call((o) => client.admin.publish.$get({}, o));
    if (res.ok) {
      setStatus(res.data);
      setError(null);
    } else setError(res.error.message);
  }, []);
  const behind = status ? status.running !== null || status.publishedVersion !== status.catalogueVersion : false;
  useEffect(() => {
    void refresh();
    const onChange = () => void refresh();
    window.addEventListener(CHANGED_EVENT, onChange);
    return () => window.removeEventListener(CHANGED_EVENT, onChange);
  }, [refresh]);
  useEffect(() => {
    const timer = setInterval(() => void refresh(), behind || asked ? FAST_MS : SLOW_MS);
    return () => clearInterval(timer);
  }, [refresh, behind, asked]);
  useEffect(() => {
    if (asked && status && !status.running) {
      const t = setTimeout(() => setAsked(false), 10_000);
      return () => clearTimeout(t);
    }
  }, [asked, status]);

  const publish = async () => {
    setAsked(true);
    const res = await call((o) => client.admin.publish.$post({}, o));
    if (res.ok) setStatus(res.data);
    else setError(res.error.message);
  };

  const failedLatest = status?.lastFailed && (!status.lastDone || status.lastFailed.startedAt > status.lastDone.startedAt) ? status.lastFailed : null;
  const state = !status ? '확인 중' : status.running ? '게시 중' : failedLatest ? '게시 실패' : status.publishedVersion === status.catalogueVersion ? '게시 완료' : '게시 대기';
  const tone = state === '게시 완료' ? 'text-emerald-700' : state === '게시 실패' ? 'text-red-700' : 'text-gold-text';

  return (
    <section aria-labelledby="publish-title" className="border border-line bg-white p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="publish-title" className="text-sm font-semibold text-muted">
            사이트 게시 상태
          </h2>
          <p className={`text-lg font-bold ${tone}`} data-testid="publish-state" aria-live="polite">
            {state}
          </p>
        </div>
        {canPublish && (
          <button type="button" className="btn-primary px-4 py-2" onClick={() => void publish()} disabled={Boolean(status?.running)}>
            지금 게시
          </button>
        )}
      </div>
      {status?.running && (
        <div className="mt-3">
          <div className="h-2 w-full bg-line" role="progressbar" aria-label="게시 진행률" aria-valuemin={0} aria-valuemax={100} aria-valuenow={status.running.progress}>
            <div className="h-2 bg-gold transition-all" style={{ width: `${Math.max(3, status.running.progress)}%` }} />
          </div>
          <p className="mt-1 text-xs text-muted">
            버전 {status.running.catalogueVersion} 빌드 중 · {status.running.progress}% · {formatDateTime(status.running.startedAt)} 시작
          </p>
        </div>
      )}
      {status && (
        <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-xs text-muted">카탈로그 버전</dt>
            <dd>{status.catalogueVersion}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">게시된 버전</dt>
            <dd data-testid="published-version">{status.publishedVersion ?? '-'}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">마지막 게시</dt>
            <dd>{formatDateTime(status.lastDone?.finishedAt)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">소요 시간</dt>
            <dd>{seconds(status.lastDone?.durationMs ?? null)}</dd>
          </div>
        </dl>
      )}
      {status?.lag && (
        <div role="alert" data-testid="publish-lag" className="mt-3 border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-semibold">
            사이트가 카탈로그보다 {elapsedText(status.lag.seconds)} 넘게 늦습니다 ({formatDateTime(status.lag.since)} 이후 변경 미게시) — 지금 게시를 눌러주세요.
          </p>
        </div>
      )}
      {failedLatest && (
        <div role="alert" className="mt-3 border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-semibold">
            버전 {failedLatest.catalogueVersion} 게시 실패 ({formatDateTime(failedLatest.finishedAt)}) — 이전 사이트가 계속 제공됩니다.
          </p>
          {failedLatest.error && <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap text-xs">{failedLatest.error}</pre>}
        </div>
      )}
      {error && <p className="mt-2 text-sm text-red-700">{error}</p>}
    </section>
  );
}
