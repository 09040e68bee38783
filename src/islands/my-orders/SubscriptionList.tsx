import { call, client } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import DateGroups from './DateGroups';
import { subscriptionBadge } from './badges';
import SubscriptionBilling from './OverduePayment';
import CardChange from './CardChange';
import ContractDownload from '../common/ContractDownload';
import ListState from './ListState';
import { useList } from './useList';
import EarlyExit from './EarlyExit';
import Mileage from './Mileage';
import Settlement from './Settlement';

const loadSubscriptions = () => call((o) => client.subscriptions.$get({}, o));

/** /my/subscriptions: the user's subscriptions by date with an 이용 중/이용 종료 badge and their billing; 해지하기 opens the in-product 중도 해지 (EarlyExit); 주행거리 (Mileage) its readings and monthly report; 반납 정산 (Settlement) once settled. */
export default function SubscriptionList() {
  const { items, error, reload } = useList(loadSubscriptions, 'subscriptions', '구독 정보를 불러오는데 실패했습니다.');
  return (
    <ListState items={items} error={error} empty="현재 구독이 없습니다.">
      {(list) => (
        <DateGroups
          items={list}
          dateOf={(s) => s.created_at}
          keyOf={(s) => s.id}
          render={(s) => (
            <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3" data-testid="subscription-item">
              <div className="min-w-0 flex-1 basis-52">
                <span className={`inline-block px-2 py-0.5 text-xs font-bold ${s.is_active ? 'bg-ink text-paper' : 'bg-line text-muted'}`} data-testid="subscription-badge">
                  {subscriptionBadge(s.is_active)}
                </span>
                <p className="mt-1 break-words font-semibold">{carDisplayName(s.request.car)}</p>
                <p className="text-sm text-muted">{s.request.month}개월 · {s.start_date} ~ {s.end_date}</p>
                <SubscriptionBilling subscription={s} onPaid={() => void reload()} />
                <CardChange subscription={s} onChanged={() => void reload()} />
              </div>
              <div className="flex shrink-0 flex-wrap items-start gap-2">
                <ContractDownload requestId={s.request.id} />
              </div>
              <Mileage subscriptionId={s.id} />
              <Settlement subscriptionId={s.id} />
              {s.is_active && s.billing.status !== 'CANCELLED' && <EarlyExit subscriptionId={s.id} onDone={() => void reload()} />}
            </div>
          )}
        />
      )}
    </ListState>
  );
}
