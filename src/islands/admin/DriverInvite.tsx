import { useState } from 'react';
import { formatKoreaDateTime } from '../../domain/dates';
import { formatPhone } from '../../domain/accounts';
import type { Driver } from '../../domain/dispatch';
import { call, client } from '../../client/api';

/**
 * 계정 초대: sends the driver a single-use link to /driver (72 hours) by 알림톡 to the roster's number
 * or by email; the driver sets a password there and signs in with their own account.
 */
export default function DriverInvite({ driver: d, onDone }: { driver: Driver; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [channel, setChannel] = useState<'phone' | 'email'>('phone');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function send(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    const json = channel === 'phone' ? { channel } : { channel, email };
    const r = await call((o) => client.admin.drivers[':id'].invite.$post({ param: { id: String(d.id) }, json }, o));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setOpen(false);
    const to = r.data.invite.channel === 'phone' ? formatPhone(r.data.invite.address) : r.data.invite.address;
    onDone(`${d.name} 기사에게 계정 초대를 보냈습니다 (${to}, ${formatKoreaDateTime(r.data.invite.expires_at)}까지).`);
  }
  if (!open) {
    return (
      <button type="button" aria-label={`${d.name} 계정 초대`} className="min-h-11 border border-line px-3 py-1.5 font-semibold" onClick={() => setOpen(true)}>
        계정 초대
      </button>
    );
  }
  return (
    <form onSubmit={(e) => void send(e)} aria-label={`${d.name} 계정 초대`} className="flex w-full flex-wrap items-end gap-2">
      <label className="text-sm">
        보낼 곳
        <select className="mt-1 block min-h-11 border border-line bg-white px-2" value={channel} onChange={(e) => setChannel(e.target.value as 'phone' | 'email')}>
          <option value="phone">알림톡 ({formatPhone(d.phone)})</option>
          <option value="email">이메일</option>
        </select>
      </label>
      {channel === 'email' && (
        <label className="text-sm">
          이메일
          <input type="email" required className="mt-1 block min-h-11 border border-line px-2" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
      )}
      <button type="submit" disabled={busy} className="btn-primary min-h-11 px-3 py-1.5">{busy ? '보내는 중…' : '초대 보내기'}</button>
      <button type="button" className="min-h-11 px-3 py-1.5 text-muted underline" onClick={() => setOpen(false)}>닫기</button>
      {error && <p role="alert" className="w-full text-sm text-danger">{error}</p>}
    </form>
  );
}
