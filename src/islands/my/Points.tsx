import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { formatWon } from '../../domain/money';
import { dotDate, koreaDate } from '../../domain/dates';
import AccountProblem from './AccountProblem';
import { useAccount } from './useAccount';

interface PointTransaction {
  id: number;
  amount: number;
  reason?: string;
  description?: string | null;
  created_at: string;
}

/** /points: the balance (GET /accounts) and the ledger (GET /users/point-transactions), newest first. */
export default function Points() {
  const state = useAccount();
  const [items, setItems] = useState<PointTransaction[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    void call((o) => client.users['point-transactions'].$get({}, o)).then((res) => {
      if (!res.ok) return setFailed(true);
      const list = Array.isArray(res.data) ? res.data : (res.data?.point_transactions ?? []);
      setItems(list);
    });
  }, []);
  if (state.status !== 'ready') return <AccountProblem state={state} />;

  return (
    <div className="space-y-6">
      <section className="rounded border border-line bg-white p-5">
        <p className="text-xs text-muted">보유 포인트</p>
        <p className="mt-1 text-3xl font-bold" data-testid="point-balance">{formatWon(state.account.point)} P</p>
        <p className="mt-2 text-xs text-muted">포인트는 1만 원 단위로 구독·의전 신청 시 사용할 수 있습니다.</p>
      </section>
      <section aria-labelledby="history">
        <h2 id="history" className="font-semibold">포인트 내역</h2>
        {failed ? (
          <p className="mt-3 text-sm text-muted">포인트 내역을 불러오지 못했습니다.</p>
        ) : items === null ? (
          <p role="status" className="mt-3 text-sm">로딩 중...</p>
        ) : items.length === 0 ? (
          <p className="mt-3 text-sm text-muted">포인트 내역이 없습니다.</p>
        ) : (
          <ul className="mt-3 divide-y divide-line rounded border border-line bg-white">
            {items.map((t) => (
              <li key={t.id} className="flex items-center justify-between gap-4 px-4 py-3 text-sm">
                <span>
                  <span className="block font-medium">{t.description ?? t.reason ?? '포인트'}</span>
                  <span className="text-xs text-muted">{dotDate(koreaDate(t.created_at))}</span>
                </span>
                <span className={`font-semibold ${t.amount < 0 ? 'text-red-700' : ''}`}>
                  {t.amount > 0 ? '+' : ''}
                  {formatWon(t.amount)} P
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
