import { call, client } from '../../client/api';
import DateGroups from '../my-orders/DateGroups';
import ListState from '../my-orders/ListState';
import { useList } from '../my-orders/useList';
import ButlerCard from './ButlerCard';
import { butlerRequestHref } from './format';

const loadRequests = () => call((o) => client.butlers.requests.$get({}, o));

/** /my/butler-requests: the user's butler requests by start date; a card opens the detail, 수정하기 opens it in edit mode. */
export default function ButlerRequestList() {
  const { items, error } = useList(loadRequests, 'butler_requests', '요청 정보를 불러오는데 실패했습니다.');
  return (
    <ListState items={items} error={error} empty="아직 버틀러 요청이 없습니다">
      {(list) => (
        <DateGroups
          items={list}
          dateOf={(r) => r.start_at}
          keyOf={(r) => r.id}
          render={(r) => (
            <ButlerCard
              request={r}
              caption={`요청 #${r.id}`}
              href={butlerRequestHref(r.id)}
              editHref={r.status === 'PENDING' ? `${butlerRequestHref(r.id)}?edit=1` : undefined}
              testId="butler-request-item"
            />
          )}
        />
      )}
    </ListState>
  );
}
