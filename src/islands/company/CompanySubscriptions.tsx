import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import { companySubscriptionBillingNote, type CompanySubscriptionView } from '../../domain/company';
import { won } from '../../domain/money';
import Alert from '../common/Alert';

const STATUS: Record<string, string> = { PENDING: '확정 대기', CONFIRMED: '확정', CANCELLED: '취소' };

/** 회사 장기 구독 (admins): every subscription ordered in the company's name, with its driver, billing and state. */
export default function CompanySubscriptions({ companyId }: { companyId: number }) {
  const [items, setItems] = useState<CompanySubscriptionView[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      const res = await call((o) => client.companies[':id'].subscriptions.$get({ param: { id: String(companyId) } }, o));
      if (res.ok) setItems(res.data.subscriptions);
      else setMessage(res.error.message);
    })();
  }, [companyId]);
  return (
    <section aria-labelledby="company-subscriptions" className="space-y-3 rounded border border-line bg-white p-5">
      <h2 id="company-subscriptions" className="text-lg font-bold">회사 장기 구독</h2>
      {items && !items.length && <p className="text-sm text-muted">회사 이름으로 한 구독 신청이 없습니다.</p>}
      <ul className="divide-y divide-line">
        {items?.map(({ request: r, driver, subscription: s }) => (
          <li key={r.id} className="space-y-1 py-3 text-sm" data-testid="company-subscription">
            <p className="font-semibold">신청 #{r.id} · {carDisplayName(r.car)} · {r.month}개월 · {STATUS[r.status] ?? r.status}</p>
            <p className="text-muted">
              운전자 {driver.name} · 월 {won(r.fee)} ({r.company?.billing === 'INVOICE' ? '월 청구서' : '법인카드'})
              {s ? ` · ${s.start_date} ~ ${s.end_date} · ${s.paid_months}개월 청구` : ''}
            </p>
            {r.company && <p className="text-xs text-muted" data-testid="company-subscription-billing-note">{companySubscriptionBillingNote(r.company.billing)}</p>}
          </li>
        ))}
      </ul>
      {message && <Alert>{message}</Alert>}
    </section>
  );
}
