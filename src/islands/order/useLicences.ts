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

/** The customer's checked licences, read once the account is known to be verified. */
export function useLicences(enabled: boolean): Licences {
  const [list, setList] = useState<LicenceView[] | null>(null);
  const [policy, setPolicy] = useState<NewDriverPolicy>('refuse');
  const read = useCallback(async () => {
    const r = await call((o) => client.subscriptions.licences.$get({}, o));
    if (!r.ok) return;
    setList(r.data.licences);
    setPolicy(r.data.new_driver);
  }, []);
  useEffect(() => {
    if (enabled) void read();
  }, [enabled, read]);
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
