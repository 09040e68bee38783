import { elapsedText } from '../../domain/dates';
import { useState } from 'react';
import { call, client } from '../../client/api';
import { formatDateTime } from './admin-api';
import { PageLoadState, usePageLoad } from './use-page-load';
import Alert from '../common/Alert';
import { withParticle } from '../../domain/korean';

/**
 * 작업: the job queue by kind (the figures GET /metrics reports) and the jobs that used every
 * attempt, each with its last error and 다시 실행 (asked once more, since a job may charge a card or send a message).
 */
export default function JobsSection() {
  const { load, reload } = usePageLoad(() => call((o) => client.admin.jobs.$get({}, o)), []);
  const [asking, setAsking] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const data = load.state === 'ready' ? load.data : null;

  const retry = async (id: number) => {
    setAsking(null);
    const res = await call((o) => client.admin.jobs[':id'].retry.$post({ param: { id: String(id) } }, o));
    setNotice(res.ok ? { ok: true, text: `${withParticle(`작업 #${id}`, '을/를')} 다시 실행하도록 대기열에 넣었습니다.` } : { ok: false, text: res.error.message });
    await reload();
  };

  return (
    <section aria-label="작업" className="space-y-6">
      <PageLoadState load={load} onRetry={() => void reload()} />
      {notice && (notice.ok ? <p role="status" className="text-sm">{notice.text}</p> : <Alert>{notice.text}</Alert>)}
      {data && (
        <>
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="job-kinds">
              <caption className="mb-2 text-left font-semibold">작업 대기열</caption>
              <thead className="text-left text-muted">
                <tr><th className="py-1 pr-3">종류</th><th className="pr-3">실행 대기</th><th className="pr-3">예약</th><th className="pr-3">실행 중</th><th className="pr-3">실패</th><th>가장 오래 기다린 작업</th></tr>
              </thead>
              <tbody>
                {!data.kinds.length && (
                  <tr className="border-t border-line"><td colSpan={6} className="py-2 text-muted">대기열에 작업이 없습니다.</td></tr>
                )}
                {data.kinds.map((k) => (
                  <tr key={k.kind} className="border-t border-line">
                    <td className="py-1 pr-3 font-mono text-xs">{k.kind}</td><td className="pr-3">{k.due}</td><td className="pr-3">{k.scheduled}</td><td className="pr-3">{k.running}</td>
                    <td className={`pr-3 ${k.failed ? 'font-semibold text-red-700' : ''}`}>{k.failed}</td><td>{k.due ? elapsedText(k.oldest_due_seconds) : '-'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div>
            <h2 className="font-semibold">실패한 작업</h2>
            {!data.failed.length && <p className="mt-1 text-sm text-muted">실패한 작업이 없습니다.</p>}
            <ul className="mt-2 divide-y divide-line border-y border-line" data-testid="failed-jobs">
              {data.failed.map((j) => (
                <li key={j.id} className="space-y-1 py-3 text-sm">
                  <p><span className="font-semibold">#{j.id}</span> <span className="font-mono text-xs">{j.kind}</span> · {j.attempts}회 시도 · {j.failed_at ? formatDateTime(j.failed_at) : ''}</p>
                  <p className="break-all font-mono text-xs text-muted">{j.key}</p>
                  <p className="break-all text-xs">마지막 오류: {j.last_error ?? '없음'}</p>
                  {asking === j.id ? (
                    <p className="flex flex-wrap items-center gap-2">
                      <span>결제나 알림 작업이면 다시 실행할 때 실제로 결제·발송됩니다. 다시 실행할까요?</span>
                      <button type="button" className="min-h-11 bg-ink px-4 font-semibold text-paper" onClick={() => void retry(j.id)}>다시 실행</button>
                      <button type="button" className="min-h-11 border border-line px-4" onClick={() => setAsking(null)}>취소</button>
                    </p>
                  ) : (
                    <button type="button" className="min-h-11 border border-line px-4 font-semibold" onClick={() => setAsking(j.id)}>다시 실행…</button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        </>
      )}
    </section>
  );
}
