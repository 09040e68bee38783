import { call, client } from '../../client/api';
import DateGroups from '../my-orders/DateGroups';
import ListState from '../my-orders/ListState';
import { useList } from '../my-orders/useList';
import ButlerCard from './ButlerCard';
import { butlerSubscriptionHref } from './format';

const loadSubscriptions = () => call((o) => client.butlers.$get({}, o));

/**
 * /my/butler-subscriptions: the user's butler subscriptions by the start date of their request; a
 * card opens /butler/subscribe/{id}. A subscription is a confirmed booking, which the server no
 * longer lets the customer edit (409), so 수정하기 appears only for a request still PENDING.
 */
export default function ButlerSubscriptionList() {
  const { items, error } = useList(loadSubscriptions, 'butlers', '구독 정보를 불러오는데 실패했습니다.');
  return (
    <ListState items={items} error={error} empty="아직 버틀러 구독이 없습니다">
      {(list) => (
        <DateGroups
          items={list}
          dateOf={(s) => s.request.start_at}
          keyOf={(s) => s.id}
          render={(s) => (
            <ButlerCard
              request={s.request}
              caption={`구독 #${s.id}`}
              href={butlerSubscriptionHref(s.id)}
              editHref={s.request.status === 'PENDING' ? `${butlerSubscriptionHref(s.id)}?edit=1` : undefined}
              testId="butler-subscription-item"
            />
          )}
        />
      )}
    </ListState>
  );
}
