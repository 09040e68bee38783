import { call, client } from '../../client/api';
import { formatPhone } from '../../domain/accounts';
import { formatWon } from '../../domain/money';
import { $session, signOut } from '../../stores/session';
import AccountProblem from './AccountProblem';
import LatestActivity from './LatestActivity';
import MarketingConsent from './MarketingConsent';
import PasswordChange from './PasswordChange';
import Withdrawal from './Withdrawal';
import { useAccount } from './useAccount';
import Pending from '../common/Pending';

const card = 'block rounded border border-line bg-white p-5 hover:border-ink';

/**
 * /my: profile with the identity badge (인증 완료 / 미인증, the spec's VERIFIED/UNVERIFIED), points, referral code,
 * coupon box, latest activity, logout; at the bottom 비밀번호 변경 and 회원 탈퇴 (docs/decisions/accounts.md). The page's frame (labels, the consent text, the cards) is in the HTML and
 * painted at once; the account's values fill it in when GET /accounts answers (issue 37: the first view's largest
 * text no longer waits for React and the API).
 */
export default function MyPage() {
  const state = useAccount();
  if (state.status !== 'ready' && state.status !== 'loading') return <AccountProblem state={state} />;
  const a = state.status === 'ready' ? state.account : null;

  async function logout() {
    const refresh = $session.get().refreshToken;
    // Wait for the revoke: leaving the page at once would abort the request.
    if (refresh) await call((o) => client.accounts.logout.$post({ json: { refresh_token: refresh } }, o));
    signOut();
    location.assign('/');
  }

  return (
    <div className="space-y-8" aria-busy={!a}>
      {!a && <p role="status" className="sr-only">회원 정보를 불러오는 중입니다.</p>}
      <section aria-labelledby="profile" className="rounded border border-line bg-white p-5">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="profile" className="text-xl font-bold">{a ? (a.name ?? a.username) : <Pending width="w-24" />}</h2>
          {a && (
            <span data-testid="identity-badge" className={`rounded px-2 py-0.5 text-xs font-semibold ${a.ci_verified ? 'bg-ink text-white' : 'border border-line text-muted'}`}>
              {a.ci_verified ? '본인인증 완료' : '본인인증 전'}
            </span>
          )}
          {/* Up here, not under the latest activity: that list fills in later and would push it down. */}
          {/* 법인 계정 beside 로그아웃, not as a card: a second row of cards pushed the sections below into view, where the latest activity then moved them. */}
          <a href="/my/company" className="ml-auto inline-flex min-h-11 items-center rounded border border-line px-4 py-2 text-sm font-semibold" data-testid="my-company-link">법인 계정</a>
          <button type="button" onClick={() => void logout()} className="min-h-11 rounded border border-ink px-4 py-2 text-sm font-semibold">로그아웃</button>
        </div>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted">이메일</dt>
          <dd>{a ? (a.email ?? '-') : <Pending width="w-40" />}</dd>
          <dt className="text-muted">휴대폰</dt>
          <dd>{a ? (a.mobile ? formatPhone(a.mobile) : '-') : <Pending width="w-28" />}</dd>
        </dl>
        {/* Keyed: the switch starts from the account's answer once it is there. */}
        <MarketingConsent
          key={a ? 'account' : 'pending'}
          initial={{ marketing: Boolean(a?.marketing_consent), night: Boolean(a?.marketing_night_consent) }}
          disabled={!a}
        />
      </section>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <a href="/points" className={card}>
          <span className="text-xs text-muted">포인트</span>
          <span className="mt-1 block text-2xl font-bold" data-testid="my-points">{a ? `${formatWon(a.point)} P` : <Pending />}</span>
        </a>
        <a href="/referral" className={card}>
          <span className="text-xs text-muted">추천 코드</span>
          <span className="mt-1 block font-mono text-2xl font-bold" data-testid="my-referral-code">{a ? a.referral_code : <Pending width="w-28" />}</span>
        </a>
        <a href="/coupon" className={card}>
          <span className="text-xs text-muted">쿠폰</span>
          <span className="mt-1 block text-lg font-bold">쿠폰함</span>
        </a>
        <a href="/my/payments" className={card} data-testid="my-payments-link">
          <span className="text-xs text-muted">결제</span>
          <span className="mt-1 block text-lg font-bold">결제 내역</span>
        </a>
      </div>
      {/* Below the account's frame, with it (appearing under it moves nothing in sight). */}
      {a && <LatestActivity />}
      {a && (
        <section aria-labelledby="password-heading" className="rounded border border-line bg-white p-5">
          <h2 id="password-heading" className="mb-4 text-lg font-bold">{a.has_password ? '비밀번호 변경' : '비밀번호 설정'}</h2>
          <PasswordChange facts={{ hasPassword: a.has_password, socialProvider: a.social_provider, email: a.email }} />
        </section>
      )}
      {/* The last thing on the page, as every Korean my-page puts it. */}
      {a && <Withdrawal />}
    </div>
  );
}
