import { useCallback } from 'react';
import { call, client } from '../../../client/api';
import type { ButlerRequestView } from '../../../domain/butler';
import TripThread from '../../common/TripThread';

/** 기사님과 메시지 on the customer's trip page: the confirmed booking's thread with its driver (shown once the thread opens). */
export default function TripMessages({ r }: { r: ButlerRequestView }) {
  const param = { id: String(r.id) };
  const load = useCallback(() => call((o) => client.butlers.requests[':id'].messages.$get({ param: { id: String(r.id) } }, o)), [r.id]);
  if (r.status !== 'CONFIRMED') return null;
  return (
    <TripThread
      id="detail-messages"
      title="기사님과 메시지"
      to="기사님에게"
      load={load}
      send={(body, clientId) => call((o) => client.butlers.requests[':id'].messages.$post({ param, json: { body, client_id: clientId } }, o))}
      version={`${r.stage}:${r.dispatch ? 1 : 0}`}
    />
  );
}
