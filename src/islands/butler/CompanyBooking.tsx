import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { booksForCompany, type MembershipView } from '../../domain/company';

/** 회사 이름으로 예약: the company (none = a private booking), the passenger and the cost centre. */
export interface CompanyChoice {
  companyId: number | null;
  guestName: string;
  guestPhone: string;
  costCentre: string;
}

export const NO_COMPANY: CompanyChoice = { companyId: null, guestName: '', guestPhone: '', costCentre: '' };

/** Shown only to a signed-in member who may book for a company (admin, 예약 담당자); billed to the company instead of a card. */
export default function CompanyBooking({ loggedIn, value, onChange }: { loggedIn: boolean; value: CompanyChoice; onChange: (c: CompanyChoice) => void }) {
  const [companies, setCompanies] = useState<MembershipView[]>([]);
  useEffect(() => {
    if (!loggedIn) return;
    const ctrl = new AbortController();
    void call((o) => client.companies.$get({}, o), { signal: ctrl.signal }).then((res) => {
      if (!ctrl.signal.aborted && res.ok) setCompanies(res.data.companies.filter((m) => booksForCompany(m.role)));
    });
    return () => ctrl.abort();
  }, [loggedIn]);
  if (!companies.length) return null;
  const set = (patch: Partial<CompanyChoice>) => onChange({ ...value, ...patch });
  return (
    <section aria-labelledby="company-booking-h" className="space-y-3">
      <h2 id="company-booking-h" className="text-lg font-bold">회사 이름으로 예약</h2>
      <label className="block text-sm">
        <span className="font-semibold">예약 주체</span>
        <select className="field mt-1" value={value.companyId ?? ''} onChange={(e) => set({ companyId: e.target.value ? Number(e.target.value) : null })}>
          <option value="">개인 예약 (내 카드로 결제)</option>
          {companies.map((m) => (
            <option key={m.company.id} value={m.company.id}>{m.company.name} ({m.company.billing === 'INVOICE' ? '월 청구서' : '법인카드'})</option>
          ))}
        </select>
      </label>
      {value.companyId !== null && (
        <div className="grid gap-3 md:grid-cols-3">
          <label className="block text-sm"><span className="font-semibold">탑승자 이름 (선택)</span><input className="field mt-1" value={value.guestName} onChange={(e) => set({ guestName: e.target.value })} /></label>
          <label className="block text-sm"><span className="font-semibold">탑승자 휴대폰 (선택)</span><input className="field mt-1" inputMode="tel" value={value.guestPhone} onChange={(e) => set({ guestPhone: e.target.value })} placeholder="010-1234-5678" /></label>
          <label className="block text-sm"><span className="font-semibold">비용 부서 (선택)</span><input className="field mt-1" value={value.costCentre} onChange={(e) => set({ costCentre: e.target.value })} /></label>
          <p className="text-xs text-muted md:col-span-3">탑승자를 입력하면 예약 확정·기사 출발 등 운행 안내가 탑승자 휴대폰으로도 발송됩니다.</p>
        </div>
      )}
    </section>
  );
}
