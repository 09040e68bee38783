import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { BUSINESS_STATUS_LABELS, COMPANY_ROLE_LABELS, booksForCompany, companyAuthorityRefusal, managesCompany, type MembershipView } from '../../domain/company';
import Alert from '../common/Alert';
import CompanyCard from './CompanyCard';
import CompanyMembers from './CompanyMembers';
import CompanyProof from './CompanyProof';
import CompanySubscriptions from './CompanySubscriptions';
import CompanyTrips from './CompanyTrips';
import CreateCompany from './CreateCompany';

/** /my/company: the user's company (its details, card, members, trips and subscriptions by role), or the form to create one. */
export default function CompanyPage() {
  const [memberships, setMemberships] = useState<MembershipView[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const load = useCallback(async () => {
    const res = await call((o) => client.companies.$get({}, o));
    if (res.ok) setMemberships(res.data.companies);
    else setMessage(res.error.message);
  }, []);
  useEffect(() => void load(), [load]);
  if (message) return <Alert>{message}</Alert>;
  if (!memberships) return <p className="text-sm text-muted">불러오는 중…</p>;
  if (!memberships.length) return <CreateCompany onCreated={() => void load()} />;
  return (
    <div className="space-y-6">
      {memberships.map(({ company, role }) => (
        <div key={company.id} className="space-y-6">
          <section aria-labelledby={`company-${company.id}`} className="rounded border border-line bg-white p-5">
            <h2 id={`company-${company.id}`} className="text-xl font-bold">{company.name}</h2>
            <p className="mt-1 text-sm text-muted">
              사업자등록번호 {company.business_number} · {BUSINESS_STATUS_LABELS[company.business_status]} · 내 역할 {COMPANY_ROLE_LABELS[role]}
            </p>
            <p className="mt-1 text-sm text-muted">대표자 {company.ceo} · {company.business_type}/{company.business_item} · 세금계산서 {company.invoice_email}</p>
            {companyAuthorityRefusal(company.authority) && (
              <Alert>
                {companyAuthorityRefusal(company.authority)}{' '}
                {managesCompany(role) ? '아래 재직·위임 확인 서류에 서류를 올려주시면 확인 후 알려드립니다.' : '회사 관리자가 확인 서류를 올리면 확인 후 알려드립니다.'}
              </Alert>
            )}
          </section>
          {managesCompany(role) && company.authority === 'PENDING' && <CompanyProof companyId={company.id} />}
          {managesCompany(role) && <CompanyCard company={company} onChanged={() => void load()} />}
          {managesCompany(role) && <CompanyMembers companyId={company.id} />}
          {booksForCompany(role) && <CompanyTrips companyId={company.id} role={role} />}
          {managesCompany(role) && <CompanySubscriptions companyId={company.id} />}
        </div>
      ))}
    </div>
  );
}
