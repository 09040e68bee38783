import DateGroups from '../my-lists/DateGroups';
import ListState from '../my-lists/ListState';
import { useList } from '../my-lists/useList';
import ButlerCard from './ButlerCard';
import { butlerSubscriptionHref } from './format';
import type { ButlerSubscriptionView } from '../../domain/butler';

/** /my/butler-subscriptions: the user's butler subscriptions by the start date of their request; 수정하기 goes to /butler/subscribe/{id}. */
export default function ButlerSubscriptionList() {
  const { items, error } = useList<ButlerSubscriptionView>('/butlers', 'butlers', '구독 정보를 불러오는데 실패했습니다.');
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
              editHref={butlerSubscriptionHref(s.id)}
              testId="butler-subscription-item"
            />
          )}
        />
      )}
    </ListState>
  );
}
