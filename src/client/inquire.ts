import { isLoggedIn, saveRedirect } from '../stores/session';

/**
 * Inquire Now: /inquire with the month and car (and the car page's options as `options`, an address
 * query, when they are not the defaults) when logged in; otherwise the spec's alert and /login,
 * which comes back to the same address.
 */
export function inquire(carId: number, month: number | null, options = ''): void {
  const target = `/inquire?${month !== null ? `month=${month}&` : ''}carId=${carId}${options ? `&${options}` : ''}`;
  if (isLoggedIn()) return location.assign(target);
  alert('로그인 후 이용 가능합니다.');
  saveRedirect(target);
  location.assign('/login');
}
