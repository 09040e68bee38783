import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { formatKoreaDateTime } from '../../domain/dates';
import type { DriverNoticesAnswer } from '../../domain/driver-notices';

/**
 * 알림: what the driver was told about their trips (배정, 변경 with before → after, 배정 해제,
 * 취소), newest first. Unread ones are marked; once shown they are marked read on the server.
 */
export default function DriverNotices({ reloadKey }: { reloadKey: number }) {
  const [answer, setAnswer] = useState<DriverNoticesAnswer | null>(null);
  useEffect(() => {
    void call((o) => client.driver.notices.$get({}, o)).then((r) => {
      if (!r.ok) return;
      setAnswer(r.data);
      const newest = r.data.notices[0];
      if (newest && r.data.unread > 0) void call((o) => client.driver.notices.read.$post({ json: { up_to_id: newest.id } }, o));
    });
  }, [reloadKey]);
  if (!answer || answer.notices.length === 0) return null;
  return (
    <section aria-labelledby="driver-notices-title" className="border border-line bg-white p-4" data-testid="driver-notices">
      <h2 id="driver-notices-title" className="font-bold">
        알림{answer.unread > 0 && <span className="ml-2 bg-gold px-1.5 py-0.5 text-xs text-ink">새 알림 {answer.unread}</span>}
      </h2>
      <ol className="mt-2 space-y-2 text-sm">
        {answer.notices.map((n) => (
          <li key={n.id} className={`border-t border-line pt-2 first:border-t-0 first:pt-0 ${n.read ? '' : 'font-semibold'}`} data-testid="driver-notice" data-kind={n.kind} data-read={n.read}>
            <p>
              {!n.read && <span className="mr-1 text-red-700">●</span>}
              {n.title} · 예약 #{n.trip_id} · {formatKoreaDateTime(n.start_at)} {n.start_location}
            </p>
            {n.changes.map((c) => (
              <p key={c.field} className="font-normal text-muted">
                {c.label}: {c.before} → {c.after}
              </p>
            ))}
            <p className="text-xs font-normal text-muted">{formatKoreaDateTime(n.created_at)}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
