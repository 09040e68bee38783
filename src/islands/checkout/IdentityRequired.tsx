import type { OrderAccount } from './useOrderAccount';

/** Shown instead of ordering to an account that has not passed identity verification (the signup page promises it). */
export default function IdentityRequired({ account, service, returnTo }: { account: OrderAccount; service: '구독' | '의전'; returnTo: () => string }) {
  return (
    <section role="alert" aria-labelledby="identity-required" className="space-y-3 border border-gold/60 bg-gold-soft p-5" data-testid="identity-required">
      <h2 id="identity-required" className="font-semibold">본인인증이 필요합니다</h2>
      <p className="text-sm leading-6">본인인증을 마친 회원만 {service} 서비스를 신청할 수 있습니다. 본인인증을 마치면 이 화면으로 돌아와 이어서 신청할 수 있습니다.</p>
      {account.failure && (
        <p className="text-sm text-red-800">
          {account.failure.title} {account.failure.detail}
        </p>
      )}
      <button type="button" disabled={account.checking} onClick={() => void account.verify(returnTo())} className="bg-ink px-5 py-3 text-sm font-semibold text-paper disabled:opacity-40">
        {account.checking ? '본인인증 확인 중...' : '본인인증하기'}
      </button>
    </section>
  );
}
