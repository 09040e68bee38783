/**
 * A notice the home page shows once when a page sends the visitor there with it: `?withdrawn=1`
 * after 회원 탈퇴 (src/islands/my/Withdrawal.tsx). A fixed toast, so the page under it does not
 * move; the query is dropped from the address, so a reload or a shared link does not repeat it.
 */
const HOME_NOTICES: Record<string, string> = {
  withdrawn: '회원 탈퇴가 완료되었습니다. 그동안 LUXE 구독을 이용해주셔서 감사합니다. 법령에 따라 보관하는 기록은 정한 기간이 지나면 파기합니다.',
};

export function initHomeNotice(root: HTMLElement): void {
  const url = new URL(location.href);
  const key = Object.keys(HOME_NOTICES).find((k) => url.searchParams.get(k) === '1');
  if (!key) return;
  root.hidden = false;
  // Written a moment after the live region is shown, so screen readers announce it.
  setTimeout(() => (root.querySelector<HTMLElement>('[data-notice-text]')!.textContent = HOME_NOTICES[key]), 50);
  root.querySelector<HTMLButtonElement>('[data-notice-close]')!.addEventListener('click', () => (root.hidden = true), { once: true });
  url.searchParams.delete(key);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
