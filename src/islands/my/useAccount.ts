import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { TOKEN_EXPIRED_CODE } from '../../domain/error-codes';
import { clearSession, setIdentityVerified, setUserCookie } from '../../stores/session';
import type { AccountDetails } from '../../domain/accounts';

export type AccountState =
  | { status: 'loading' }
  | { status: 'ready'; account: AccountDetails }
  | { status: 'expired' | 'failed' | 'empty'; message: string };

/** Loads GET /accounts; an expired or refused token clears the session (the spec's English texts in Korean: docs/decisions/korean-messages.md). */
export function useAccount(): AccountState {
  const [state, setState] = useState<AccountState>({ status: 'loading' });
  useEffect(() => {
    const ctrl = new AbortController();
    void call((o) => client.accounts.$get({}, o), { signal: ctrl.signal }).then((res) => {
      if (ctrl.signal.aborted) return;
      if (!res.ok) {
        if (res.status === 401 || res.error.code === TOKEN_EXPIRED_CODE) {
          clearSession();
          return setState({ status: 'expired', message: '로그인이 만료되었습니다. 다시 로그인해주세요.' });
        }
        return setState({ status: 'failed', message: '회원 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.' });
      }
      const account = res.data;
      if (!account?.id) return setState({ status: 'empty', message: '회원 정보가 없습니다. 다시 로그인해주세요.' });
      setIdentityVerified(Boolean(account.ci_verified));
      setUserCookie({ id: account.id, username: account.username, name: account.name, email: account.email });
      setState({ status: 'ready', account });
    });
    return () => ctrl.abort();
  }, []);
  return state;
}
