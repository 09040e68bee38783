import { useCallback, useEffect, useState } from 'react';
import { del, get } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import { formatWon } from '../../domain/money';
import DateGroups from './DateGroups';
import type { SubscriptionRequest } from '../../domain/subscriptions';

/** /my/requests: the user's subscription requests by date, each cancellable while pending. */
export default function RequestList() {
  const [items, setItems] = useState<SubscriptionRequest[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<number | null>(null);

  const load = useCallback(async () => {
    const res = await get<{ subscription_requests: SubscriptionRequest[] }>('/subscriptions/requests');
    if (res.ok) setItems(res.data.subscription_requests);
    else setError(res.status === 401 ? '로그인이 필요합니다.' : '요청 정보를 불러오는데 실패했습니다.');
  }, []);
  useEffect(() => void load(), [load]);

  async function cancel(r: SubscriptionRequest) {
    if (cancelling !== null) return;
    if (!confirm('구독 신청을 취소하시겠습니까? 취소 후에는 되돌릴 수 없습니다.')) return;
    setCancelling(r.id);
    const res = await del(`/subscriptions/requests/${r.id}`);
    setCancelling(null);
    if (!res.ok) alert(`요청 취소에 실패했습니다.\n${res.error.message}`);
    await load();
  }

  if (error) return <p role="alert" className="text-red-700">{error}</p>;
  if (!items) return <p className="text-muted">로딩 중...</p>;
  if (!items.length) return <p className="py-16 text-center text-muted">아직 신청한 차량이 없습니다.</p>;
  return (
    <DateGroups
      items={items}
      dateOf={(r) => r.created_at}
      keyOf={(r) => r.id}
      render={(r) => (
        <div className="flex items-center justify-between gap-4" data-testid="request-item">
          <a href={`/subscribe/request/${r.id}`} className="min-w-0">
            <p className="text-xs text-muted">{r.car.model.brand.name} · 신청 #{r.id} · {r.status === 'CONFIRMED' ? '확정' : '접수'}</p>
            <p className="truncate font-semibold">{carDisplayName(r.car)}</p>
            <p className="text-sm">{r.month}개월 · 월 ₩{formatWon(r.final_fee)}</p>
          </a>
          {r.status === 'PENDING' && (
            <button type="button" onClick={() => void cancel(r)} disabled={cancelling !== null} className="shrink-0 border border-ink px-4 py-2 text-sm disabled:opacity-50">
              {cancelling === r.id ? '취소 중...' : '취소하기'}
            </button>
          )}
        </div>
      )}
    />
  );
}
