import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { APPROVAL_LABELS, type CompanyRole } from '../../domain/company';
import type { ButlerRequestView } from '../../domain/butler';
import { formatKoreaDateTime } from '../../domain/dates';
import { won } from '../../domain/money';
import Alert from '../common/Alert';
import VatSplit from '../common/VatSplit';
import EditForm from '../butler-lists/detail/EditForm';

/**
 * 회사 의전 예약: every trip booked for the company (admins and bookers), with 승인/거절 for the admin
 * of a waiting one, and 예약 변경 for the admin of any 접수 (PENDING) trip: the booking page's edit form
 * (its price rule, 공급가액·부가세 and the question when the price changes) sent to
 * PUT /companies/{id}/trips/{tripId}.
 */
export default function CompanyTrips({ companyId, role }: { companyId: number; role: CompanyRole }) {
  const [trips, setTrips] = useState<ButlerRequestView[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const id = String(companyId);
  const load = useCallback(async () => {
    const res = await call((o) => client.companies[':id'].trips.$get({ param: { id } }, o));
    if (res.ok) setTrips(res.data.trips);
    else setMessage(res.error.message);
  }, [id]);
  useEffect(() => void load(), [load]);
  const decide = async (tripId: number, decision: 'approve' | 'decline') => {
    const res = await call((o) => client.companies[':id'].trips[':tripId'].approval.$post({ param: { id, tripId: String(tripId) }, json: { decision } }, o));
    if (!res.ok) return setMessage(res.error.message);
    setMessage(null);
    await load();
  };
  return (
    <section aria-labelledby="company-trips" className="space-y-3 rounded border border-line bg-white p-5">
      <h2 id="company-trips" className="text-lg font-bold">회사 의전 예약</h2>
      {trips && !trips.length && <p className="text-sm text-muted">회사 이름으로 한 의전 예약이 없습니다.</p>}
      <ul className="divide-y divide-line">
        {trips?.map((t) => {
          const cb = t.company_booking;
          return (
            <li key={t.id} className="space-y-1 py-3 text-sm" data-testid="company-trip">
              <p className="font-semibold">#{t.id} · {formatKoreaDateTime(new Date(t.start_at))} · {t.start_location}</p>
              <p className="text-muted">
                예약자 {cb?.booker_name} · 탑승자 {cb?.guest_name ?? cb?.booker_name} · 비용 부서 {cb?.cost_centre ?? '-'} · {won(t.final_price)} <VatSplit total={t.final_price} className="" /> ({cb?.billing === 'INVOICE' ? '월 청구서' : '법인카드'})
                {cb?.approval_status ? ` · ${APPROVAL_LABELS[cb.approval_status]}` : ''}
              </p>
              {role === 'ADMIN' && t.status === 'PENDING' && editing !== t.id && (
                <button type="button" className="btn-outline min-h-11 px-4" disabled={editing !== null} onClick={() => setEditing(t.id)}>예약 변경</button>
              )}
              {editing === t.id && (
                <EditForm
                  request={t}
                  companyId={companyId}
                  onSaved={async () => {
                    setEditing(null);
                    setMessage(null);
                    await load();
                  }}
                  onCancel={() => setEditing(null)}
                  onRefused={async (lines) => {
                    // Confirmed, cancelled or its days taken meanwhile: the list as it is now, with why.
                    setEditing(null);
                    await load();
                    setMessage(lines.join(' '));
                  }}
                />
              )}
              {role === 'ADMIN' && cb?.approval_status === 'WAITING' && (
                <div className="flex gap-2">
                  <button type="button" className="btn-primary min-h-11 px-4" onClick={() => void decide(t.id, 'approve')}>승인</button>
                  <button type="button" className="btn-outline min-h-11 px-4" onClick={() => void decide(t.id, 'decline')}>거절</button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {message && <Alert>{message}</Alert>}
    </section>
  );
}
