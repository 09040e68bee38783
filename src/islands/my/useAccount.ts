import { useEffect, useState } from 'react';
import { get } from '../../client/api';
import { ErrorCode } from '../../domain/error-codes';
import { clearSession, setIdentityVerified, setUserCookie } from '../../stores/session';
import type { AccountView } from '../../domain/accounts';

export type AccountState =
  | { status: 'loading' }
  | { status: 'ready'; account: AccountView }
  | { status: 'expired' | 'failed' | 'empty'; message: string };

/** Loads GET /accounts; an expired or refused token clears the session (spec: 'login expired, please log in again'). */
export function useAccount(): AccountState {
  const [state, setState] = useState<AccountState>({ status: 'loading' });
  useEffect(() => {
    const ctrl = new AbortController();
    void get<AccountView | { user: AccountView }>('/accounts', { signal: ctrl.signal }).then((res) => {
      if (ctrl.signal.aborted) return;
      if (!res.ok) {
        if (res.status === 401 || res.error.code === ErrorCode.TOKEN_EXPIRED) {
          clearSession();
          return setState({ status: 'expired', message: 'login expired, please log in again' });
        }
        return setState({ status: 'failed', message: 'Failed to load user info' });
      }
      const account = res.data && 'user' in res.data ? res.data.user : res.data;
      if (!account || typeof account !== 'object' || !('id' in account)) return setState({ status: 'empty', message: 'No user info' });
      setIdentityVerified(Boolean(account.ci_verified));
      setUserCookie({ id: account.id, username: account.username, name: account.name, email: account.email });
      setState({ status: 'ready', account });
    });
    return () => ctrl.abort();
  }, []);
  return state;
}
