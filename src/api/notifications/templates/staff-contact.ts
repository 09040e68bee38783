import { formatPhone } from '../../../domain/accounts';
import type { UserRow } from '../data';

/** A customer as staff read them: name, mobile and email. */
export function contact(u: UserRow | undefined): string {
  if (!u) return '탈퇴한 회원';
  return [u.name ?? u.username, u.mobile ? formatPhone(u.mobile) : null, u.email].filter(Boolean).join(' · ');
}
