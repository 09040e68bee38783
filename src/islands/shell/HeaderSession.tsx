import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $session, isSessionValid, loadSession } from '../../stores/session';

/** The header's right side: 마이페이지 when logged in, else 로그인. */
export default function HeaderSession() {
  const session = useStore($session);
  useEffect(() => {
    loadSession();
  }, []);
  return isSessionValid(session) ? (
    <a href="/my" className="text-sm font-semibold">마이페이지</a>
  ) : (
    <a href="/login" className="text-sm font-semibold">로그인</a>
  );
}
