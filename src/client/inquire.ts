import { isLoggedIn, saveRedirect } from '../stores/session';

/** Inquire Now: /inquire with the month and car when logged in; otherwise the spec's alert and /login. */
export function inquire(carId: number, month: number | null): void {
  const target = `/inquire?${month !== null ? `month=${month}&` : ''}carId=${carId}`;
  if (isLoggedIn()) return location.assign(target);
  alert('로그인 후 이용 가능합니다.');
  saveRedirect(target);
  location.assign('/login');
}
