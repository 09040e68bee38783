import type { AccountState } from './useAccount';

/** Loading, expired, failed and empty states of the account, each with a way forward. */
export default function AccountProblem({ state }: { state: Exclude<AccountState, { status: 'ready' }> }) {
  if (state.status === 'loading') return <p role="status">로딩 중...</p>;
  return (
    <div role="alert" className="space-y-4 rounded border border-red-200 bg-red-50 p-5 text-red-800">
      <p className="font-semibold">{state.message}</p>
      {state.status === 'expired' ? (
        <a href="/login" className="inline-block rounded bg-ink px-5 py-2.5 font-semibold text-white">로그인</a>
      ) : (
        <button type="button" onClick={() => location.reload()} className="rounded bg-ink px-5 py-2.5 font-semibold text-white">다시 시도</button>
      )}
    </div>
  );
}
