import { useState } from 'react';
import { call, client } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import { won } from '../../domain/money';
import DateGroups from './DateGroups';
import ListState from './ListState';
import { useList } from './useList';
import { requestCancelQuestion, requestStateText } from '../../domain/orders';
import type { SubscriptionRequest } from '../../domain/subscriptions';
import { optionLines } from '../../domain/subscription-lines';
import ContractDownload from '../common/ContractDownload';
import { hasContract } from '../../domain/contract';
import { dotDate } from '../../domain/dates';

const loadRequests = () => call((o) => client.subscriptions.requests.$get({}, o));

/** /my/requests: the user's subscription requests by date, each cancellable while pending; cancelled ones stay with their state. */
export default function RequestList() {
  const { items, error, reload } = useList(loadRequests, 'subscription_requests', '요청 정보를 불러오는데 실패했습니다.');
  const [cancelling, setCancelling] = useState<number | null>(null);

  async function cancel(r: SubscriptionRequest) {
    if (cancelling !== null) return;
    if (!confirm(requestCancelQuestion(r))) return;
    setCancelling(r.id);
    const res = await call((o) => client.subscriptions.requests[':id'].$delete({ param: { id: String(r.id) } }, o));
    setCancelling(null);
    if (!res.ok) alert(`요청 취소에 실패했습니다.\n${res.error.message}`);
    await reload();
  }

  return (
    <ListState items={items} error={error} empty="아직 신청한 차량이 없습니다.">
      {(list) => (
        <DateGroups
          items={list}
          dateOf={(r) => r.created_at}
          keyOf={(r) => r.id}
          render={(r) => (
            <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-3" data-testid="request-item">
              <a href={`/subscribe/request/${r.id}`} className="min-w-0 flex-1 basis-52">
                <p className="text-xs text-muted">{r.car.model.brand.name} · 신청 #{r.id} · <span data-testid="request-state">{requestStateText(r)}</span></p>
                <p className="break-words font-semibold">{carDisplayName(r.car)}</p>
                <p className="text-sm">
                  {r.month}개월 · 월 구독료 {won(r.fee)} · 첫 결제 금액 {won(r.final_fee)}
                  {r.requested_start && r.status === 'PENDING' ? ` · ${dotDate(r.requested_start)} 시작 희망` : ''}
                </p>
                {r.options && (
                  <p className="mt-1 text-xs text-muted" data-testid="request-options">
                    {optionLines(r.options.options, r.options.prices, { month: r.month, startDate: r.start_date ?? r.requested_start })
                      .filter((l) => l.value !== '없음' && l.label !== '초과 주행 요금')
                      .map((l) => `${l.label} ${l.value}`)
                      .join(' · ')}
                  </p>
                )}
              </a>
              {hasContract(r) && <ContractDownload requestId={r.id} />}
              {r.status === 'PENDING' && (
                <button type="button" onClick={() => void cancel(r)} disabled={cancelling !== null} className="min-h-11 min-w-11 shrink-0 border border-ink px-4 text-sm disabled:opacity-50">
                  {cancelling === r.id ? '취소 중...' : '취소하기'}
                </button>
              )}
            </div>
          )}
        />
      )}
    </ListState>
  );
}
