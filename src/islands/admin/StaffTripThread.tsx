import { useCallback, useState } from 'react';
import { call, client } from '../../client/api';
import type { DispatchTrip } from '../../domain/dispatch';
import TripThread from '../common/TripThread';

/**
 * 메시지 on the 배차 card: staff open the trip's thread between the customer and the driver, read it
 * (without marking it read for either) and write in it as LUXE 고객센터. Mounted only when opened,
 * so a board of many trips does not poll every thread.
 */
export default function StaffTripThread({ trip: t }: { trip: DispatchTrip }) {
  const [open, setOpen] = useState(false);
  const id = String(t.id);
  const load = useCallback(() => call((o) => client.admin['butler-requests'][':id'].messages.$get({ param: { id } }, o)), [id]);
  return (
    <div className="w-full">
      <button type="button" aria-expanded={open} aria-label={`#${t.id} 메시지`} className="min-h-11 border border-line px-3 py-1.5 font-semibold" onClick={() => setOpen(!open)}>
        {open ? '메시지 닫기' : '메시지'}
      </button>
      {open && (
        <div className="mt-2">
          <TripThread
            id={`staff-trip-${t.id}-messages`}
            title={`#${t.id} 고객·기사 메시지`}
            to="고객과 기사님에게"
            load={load}
            send={(body, clientId) => call((o) => client.admin['butler-requests'][':id'].messages.$post({ param: { id }, json: { body, client_id: clientId } }, o))}
            version={`${t.stage}:${t.driver?.id ?? 0}`}
          />
        </div>
      )}
    </div>
  );
}
