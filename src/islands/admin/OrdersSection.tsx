import { useCallback, useEffect, useState } from 'react';
import { addDays, todayInKorea } from '../../domain/dates';
import { won } from '../../domain/money';
import { adminGet, adminSend, formatDateTime } from './admin-api';

type Kind = 'subscription' | 'butler';
interface Request {
  id: number;
  status: 'PENDING' | 'CONFIRMED' | 'CANCELLED';
  user: { id: number; name: string | null; email: string | null; mobile: string | null };
  car: { id: number; sub_model: string | null; license_plate: string | null; model: string; brand: string };
  month?: number;
  final_fee?: number;
  final_price?: number;
  start_date?: string | null;
  start_at?: string | null;
  start_location?: string;
  created_at: string;
}

const STATUS_LABEL = { PENDING: '대기', CONFIRMED: '확정', CANCELLED: '취소' } as const;
const PATH: Record<Kind, string> = { subscription: '/subscription-requests', butler: '/butler-requests' };

/** The order desk: subscription and butler requests by status, with 확정 and 취소. */
export default function OrdersSection() {
  const [kind, setKind] = useState<Kind>('subscription');
  const [status, setStatus] = useState<string>('PENDING');
  const [rows, setRows] = useState<Request[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [start, setStart] = useState(() => addDays(todayInKorea(), 1));

  const load = useCallback(async () => {
    setRows(null);
    const res = await adminGet<{ requests: Request[] }>(`${PATH[kind]}${status ? `?status=${status}` : ''}`);
    if (res.ok) setRows(res.data.requests);
    else setMessage(res.error.message);
  }, [kind, status]);
  useEffect(() => void load(), [load]);

  const act = async (r: Request, action: 'confirm' | 'cancel') => {
    if (action === 'cancel' && !window.confirm(`#${r.id} 요청을 취소할까요? 결제한 금액은 전액 환불되고, 사용한 쿠폰과 포인트도 돌려드립니다.`)) return;
    const body = kind === 'subscription' && action === 'confirm' ? { start_date: start } : {};
    const res = await adminSend('POST', `${PATH[kind]}/${r.id}/${action}`, body);
    setMessage(res.ok ? `#${r.id} ${action === 'confirm' ? '확정' : '취소'}했습니다.` : res.error.message);
    await load();
  };

  return (
    <section aria-label="주문" className="space-y-4">
      <div className="flex flex-wrap items-end gap-2">
        <div role="tablist" aria-label="주문 종류" className="flex">
          {(['subscription', 'butler'] as const).map((k) => (
            <button key={k} role="tab" aria-selected={kind === k} type="button" onClick={() => setKind(k)} className={`border border-ink px-4 py-2 text-sm font-semibold ${kind === k ? 'bg-ink text-paper' : ''}`}>
              {k === 'subscription' ? '구독 신청' : '의전 요청'}
            </button>
          ))}
        </div>
        <select aria-label="상태" className="field w-auto py-2" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="PENDING">대기</option>
          <option value="CONFIRMED">확정</option>
          <option value="CANCELLED">취소</option>
          <option value="">전체</option>
        </select>
        {kind === 'subscription' && (
          <label className="text-sm">
            <span className="mr-2 font-semibold">확정 시 시작일</span>
            <input type="date" className="field w-auto py-2" value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
        )}
      </div>
      {message && <p role="status" className="text-sm text-muted">{message}</p>}
      {!rows && <p className="text-sm text-muted">불러오는 중…</p>}
      {rows && !rows.length && <p className="text-sm text-muted">요청이 없습니다.</p>}
      <ul className="divide-y divide-line border-y border-line">
        {rows?.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center gap-3 py-3 text-sm">
            <span className="w-12 shrink-0 text-muted">#{r.id}</span>
            <div className="min-w-0 flex-1">
              <p className="font-semibold">
                {r.car.brand} {r.car.model} {r.car.sub_model ?? ''} <span className="text-muted">· {STATUS_LABEL[r.status]}</span>
              </p>
              <p className="text-muted">
                {r.user.name ?? '-'} ({r.user.email ?? r.user.mobile ?? '-'}) ·{' '}
                {kind === 'subscription' ? `${r.month}개월 · ${won(r.final_fee ?? 0)}` : `${formatDateTime(r.start_at)} · ${r.start_location} · ${won(r.final_price ?? 0)}`} · 신청 {formatDateTime(r.created_at)}
              </p>
            </div>
            {r.status === 'PENDING' && (
              <button type="button" className="btn-primary px-3 py-1.5" onClick={() => void act(r, 'confirm')}>
                확정
              </button>
            )}
            {r.status !== 'CANCELLED' && (kind === 'butler' || r.status === 'PENDING') && (
              <button type="button" className="border border-red-700 px-3 py-1.5 font-semibold text-red-700" onClick={() => void act(r, 'cancel')}>
                취소
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
