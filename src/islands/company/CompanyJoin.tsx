import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { COMPANY_ROLE_LABELS, type CompanyInviteInfoAnswer } from '../../domain/company';
import Alert from '../common/Alert';

/** /my/company/join?code=…: the invite's company and role, and 초대 수락 for the signed-in account. */
export default function CompanyJoin() {
  const code = typeof location === 'undefined' ? '' : (new URLSearchParams(location.search).get('code') ?? '');
  const [info, setInfo] = useState<CompanyInviteInfoAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!code) return setError('초대 링크가 올바르지 않습니다. 회사 관리자에게 새 초대를 요청해주세요.');
    void call((o) => client.companies.invites[':code'].$get({ param: { code } }, o)).then((res) => (res.ok ? setInfo(res.data) : setError(res.error.message)));
  }, [code]);
  const accept = async () => {
    setBusy(true);
    const res = await call((o) => client.companies.invites.accept.$post({ json: { code } }, o));
    setBusy(false);
    if (res.ok) location.assign('/my/company');
    else setError(res.error.message);
  };
  if (error) return <Alert>{error}</Alert>;
  if (!info) return <p className="text-sm text-muted">초대 정보를 불러오는 중…</p>;
  return (
    <div className="space-y-4 rounded border border-line bg-white p-5">
      <p className="text-lg font-bold">{info.company_name}</p>
      <p className="text-sm">역할: {COMPANY_ROLE_LABELS[info.role]}</p>
      <button type="button" className="btn-primary min-h-11 px-5" disabled={busy} onClick={() => void accept()}>
        {busy ? '수락 중...' : '초대 수락'}
      </button>
    </div>
  );
}
