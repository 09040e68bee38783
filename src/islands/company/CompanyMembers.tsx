import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { call, client } from '../../client/api';
import { COMPANY_ROLE_LABELS, COMPANY_ROLES, type CompanyMembersAnswer, type CompanyRole } from '../../domain/company';
import { dotDate, koreaDate } from '../../domain/dates';
import Alert from '../common/Alert';

/** 구성원 (ADMIN): the members with their roles (change, 내보내기), the open invites, and 직원 초대 by email or 휴대폰. */
export default function CompanyMembers({ companyId }: { companyId: number }) {
  const [data, setData] = useState<CompanyMembersAnswer | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [channel, setChannel] = useState<'email' | 'phone'>('email');
  const [address, setAddress] = useState('');
  const [role, setRole] = useState<CompanyRole>('BOOKER');
  const id = String(companyId);
  const load = useCallback(async () => {
    const res = await call((o) => client.companies[':id'].members.$get({ param: { id } }, o));
    if (res.ok) setData(res.data);
    else setMessage(res.error.message);
  }, [id]);
  useEffect(() => void load(), [load]);

  const invite = async (e: FormEvent) => {
    e.preventDefault();
    const json = channel === 'email' ? { channel, email: address, role } : { channel, phone: address, role };
    const res = await call((o) => client.companies[':id'].invites.$post({ param: { id }, json }, o));
    if (!res.ok) return setMessage(res.error.message);
    setMessage(null);
    setStatus(`${address}(으)로 초대를 보냈습니다. 링크는 ${dotDate(koreaDate(new Date(res.data.invite.expires_at)))}까지 한 번만 쓸 수 있습니다.`);
    setAddress('');
    await load();
  };
  const act = async (send: () => Promise<{ ok: boolean; error?: { message: string } }>) => {
    const res = await send();
    if (!res.ok) return setMessage(res.error?.message ?? null);
    setMessage(null);
    await load();
  };
  return (
    <section aria-labelledby="company-members" className="space-y-4 rounded border border-line bg-white p-5">
      <h2 id="company-members" className="text-lg font-bold">구성원</h2>
      <ul className="divide-y divide-line">
        {data?.members.map((m) => (
          <li key={m.user_id} className="flex flex-wrap items-center gap-2 py-2 text-sm" data-testid="company-member">
            <span className="font-semibold">{m.name}</span>
            <span className="text-muted">{m.email}</span>
            <select aria-label={`${m.name} 역할`} className="field ml-auto w-auto py-2" value={m.role}
              onChange={(e) => void act(() => call((o) => client.companies[':id'].members[':userId'].$put({ param: { id, userId: String(m.user_id) }, json: { role: e.target.value as CompanyRole } }, o)))}>
              {COMPANY_ROLES.map((r) => <option key={r} value={r}>{COMPANY_ROLE_LABELS[r]}</option>)}
            </select>
            <button type="button" className="min-h-11 border border-line px-3" onClick={() => void act(() => call((o) => client.companies[':id'].members[':userId'].$delete({ param: { id, userId: String(m.user_id) } }, o)))}>내보내기</button>
          </li>
        ))}
      </ul>
      {data && data.invites.length > 0 && (
        <ul className="text-xs text-muted">
          {data.invites.map((i) => <li key={i.id}>초대 대기: {i.address} · {COMPANY_ROLE_LABELS[i.role]}</li>)}
        </ul>
      )}
      <form onSubmit={(e) => void invite(e)} className="flex flex-wrap gap-2" aria-label="직원 초대">
        <select aria-label="초대 방법" className="field w-auto py-2" value={channel} onChange={(e) => setChannel(e.target.value as 'email' | 'phone')}>
          <option value="email">이메일</option>
          <option value="phone">휴대폰(알림톡)</option>
        </select>
        <input aria-label={channel === 'email' ? '초대할 이메일' : '초대할 휴대폰 번호'} className="field min-w-0 flex-1" value={address} onChange={(e) => setAddress(e.target.value)} placeholder={channel === 'email' ? 'name@company.co.kr' : '010-1234-5678'} />
        <select aria-label="초대 역할" className="field w-auto py-2" value={role} onChange={(e) => setRole(e.target.value as CompanyRole)}>
          {COMPANY_ROLES.map((r) => <option key={r} value={r}>{COMPANY_ROLE_LABELS[r]}</option>)}
        </select>
        <button type="submit" className="btn-primary min-h-11">초대 보내기</button>
      </form>
      {status && <p role="status" className="text-sm">{status}</p>}
      {message && <Alert>{message}</Alert>}
    </section>
  );
}
