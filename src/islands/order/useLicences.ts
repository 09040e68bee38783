import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import type { ApiFailure } from '../../domain/error-codes';
import type { LicenceView, NewDriverPolicy } from '../../domain/licence';
import type { RegisterLicenceInput } from '../../domain/schemas/licence';

export interface Licences {
  /** null until the first read answered. */
  list: LicenceView[] | null;
  policy: NewDriverPolicy;
  /** Asks the 운전자격확인시스템 (POST /subscriptions/licences); the list is read again either way (a refused check is kept too). */
  register: (input: RegisterLicenceInput) => Promise<{ ok: true; licence: LicenceView } | { ok: false; error: ApiFailure }>;
}

/**
 * The customer's checked licences, read at once (beside the car and the account): the order page
 * waits for them before drawing its sections, so the licence step never pushes the page down. A
 * failed read counts as none (a check then says what failed).
 */
export function useLicences(): Licences {
  const [list, setList] = useState<LicenceView[] | null>(null);
  const [policy, setPolicy] = useState<NewDriverPolicy>('refuse');
  const read = useCallback(async () => {
    const r = await call((o) => client.subscriptions.licences.$get({}, o));
    if (!r.ok) return setList((l) => l ?? []);
    setList(r.data.licences);
    setPolicy(r.data.new_driver);
  }, []);
  useEffect(() => {
    void read();
  }, [read]);
  const register = useCallback(
    async (input: RegisterLicenceInput) => {
      const r = await call((o) => client.subscriptions.licences.$post({ json: input }, o));
      await read();
      return r.ok ? ({ ok: true, licence: r.data.licence } as const) : ({ ok: false, error: r.error } as const);
    },
    [read],
  );
  return { list, policy, register };
}
