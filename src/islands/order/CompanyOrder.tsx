import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import type { CompanyMemberView, CompanyView } from '../../domain/company';
import { companyPayment, type CompanyOrderChoice } from './company-order';
import VatTable from '../common/VatTable';

/**
 * Shown only to a company's admin (a booker books trips, not contracts: the API refuses them):
 * 개인 구독 or 회사 명의로 구독, then the driver, how the company pays and 공급가액·부가세 of the
 * monthly fee. Loaded apart from the order page (most customers have no company).
 */
export default function CompanyOrder({ value, onChange, monthly }: { value: CompanyOrderChoice | null; onChange: (c: CompanyOrderChoice | null) => void; monthly: number | null }) {
  const [companies, setCompanies] = useState<CompanyView[]>([]);
  const [drivers, setDrivers] = useState<CompanyMemberView[] | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    void call((o) => client.companies.$get({}, o), { signal: ctrl.signal }).then((res) => {
      if (!ctrl.signal.aborted && res.ok) setCompanies(res.data.companies.filter((m) => m.role === 'ADMIN').map((m) => m.company));
    });
    return () => ctrl.abort();
  }, []);
  const companyId = value?.company.id ?? null;
  useEffect(() => {
    setDrivers(null);
    if (companyId === null) return;
    const ctrl = new AbortController();
    void call((o) => client.companies[':id'].members.$get({ param: { id: String(companyId) } }, o), { signal: ctrl.signal }).then((res) => {
      if (!ctrl.signal.aborted) setDrivers(res.ok ? res.data.members.filter((m) => m.role === 'DRIVER') : []);
    });
    return () => ctrl.abort();
  }, [companyId]);
  if (!companies.length) return null;
  const pick = (id: string) => {
    const company = companies.find((c) => String(c.id) === id);
    onChange(company ? { company, driver: null } : null);
  };
  const pickDriver = (id: string) => {
    const d = drivers?.find((m) => String(m.user_id) === id);
    if (value) onChange({ ...value, driver: d ? { id: d.user_id, name: d.name } : null });
  };
  return (
    <section aria-labelledby="company-order-h" className="space-y-3" data-testid="company-order">
      <h2 id="company-order-h" className="font-semibold">회사 명의로 구독</h2>
      <div className="text-sm">
        <label htmlFor="company-order-company" className="block font-semibold">구독 주체</label>
        <select id="company-order-company" className="field mt-1" value={companyId ?? ''} onChange={(e) => pick(e.target.value)}>
          <option value="">개인 구독 (내 카드로 결제)</option>
          {companies.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select>
      </div>
      {value && (
        <div className="space-y-3 border border-line bg-white p-4">
          <div className="text-sm">
            <label htmlFor="company-order-driver" className="block font-semibold">운전자</label>
            <select id="company-order-driver" className="field mt-1" value={value.driver?.id ?? ''} onChange={(e) => pickDriver(e.target.value)} disabled={!drivers?.length}>
              <option value="">운전자 역할의 구성원을 선택해주세요</option>
              {drivers?.map((m) => <option key={m.user_id} value={m.user_id}>{m.name}{m.email ? ` (${m.email})` : ''}</option>)}
            </select>
          </div>
          {drivers && !drivers.length && (
            <p className="text-sm text-danger">운전자 역할의 구성원이 없습니다. <a href="/my/company" className="underline">회사 관리</a>에서 운전자를 초대해주세요.</p>
          )}
          <p className="text-xs text-muted">계약자는 회사이고, 선택한 구성원이 운전자로 계약서에 기재됩니다. 운전자의 운전면허와 생년월일로 운전 자격과 연령 기준을 확인합니다.</p>
          <p className="text-sm">결제 방법 <strong data-testid="company-payment">{companyPayment(value.company)}</strong></p>
          <p className="text-xs text-muted">회사 명의 구독에는 쿠폰과 포인트가 적용되지 않으며, 카드 등록 창 없이 회사 결제 수단으로 결제됩니다.</p>
          {monthly !== null && <VatTable label="월 구독료" total={monthly} testId="company-vat" />}
          <p className="text-xs text-muted">보증금은 반납 후 돌려받는 금액으로 부가세 대상이 아닙니다.</p>
        </div>
      )}
    </section>
  );
}
