import { useState } from 'react';
import { call, client } from '../../client/api';
import { termOfferPeriod } from '../../domain/checkout';
import { cardLabel } from '../../domain/card-label';
import type { CompanyView } from '../../domain/company';
import { jsonCheckoutStorage } from '../checkout/checkoutStorage';
import { useBillingCheckout, type CheckoutMessages } from '../checkout/useBillingCheckout';

/** Session storage of 법인카드 등록: which company, across the card provider's redirect. */
const storage = jsonCheckoutStorage<{ companyId: number }>('companyCard');
const RETURN_PARAM = 'card';

const MESSAGES: CheckoutMessages = {
  providerFailed: (m) => `카드 등록에 실패했습니다: ${m}`,
  sendFailed: '법인카드를 등록하지 못했습니다. 잠시 후 다시 시도해주세요.',
  callFailed: (m) => `카드 등록 창을 열지 못했습니다: ${m}`,
};

/** 법인카드 (offered for a year of trips): registered through the same card window as an order's; the company's trips are charged to it (unless 후불). */
export default function CompanyCard({ company, onChanged }: { company: CompanyView; onChanged: () => void }) {
  const [done, setDone] = useState(false);
  const returned = typeof location !== 'undefined' && new URLSearchParams(location.search).get(RETURN_PARAM) === String(company.id);
  const checkout = useBillingCheckout({
    storage,
    messages: MESSAGES,
    ready: returned,
    send: async (billingKey, draft) => {
      const res = await call((o) => client.companies[':id'].card.$put({ param: { id: String(draft?.companyId ?? company.id) }, json: { billing_key: billingKey } }, o));
      if (res.ok) {
        setDone(true);
        onChanged();
      }
      return res;
    },
  });
  const register = () =>
    checkout.start({ companyId: company.id }, { redirectUrl: `${location.origin}/my/company?${RETURN_PARAM}=${company.id}`, issueName: `${company.name} 법인카드 등록`, amount: null, offerPeriod: termOfferPeriod(12) });
  return (
    <section aria-labelledby="company-card" className="rounded border border-line bg-white p-5">
      <h2 id="company-card" className="text-lg font-bold">결제 수단</h2>
      <p className="mt-2 text-sm" data-testid="company-card">
        {company.billing === 'INVOICE' ? '후불(월 청구서)로 결제합니다. ' : ''}법인카드 {company.card ? cardLabel(company.card) : '미등록'}
      </p>
      <button type="button" onClick={() => void register()} disabled={checkout.stage === 'sending'} className="btn-outline mt-3 min-h-11 px-4">
        {checkout.stage === 'sending' ? '등록 중...' : company.card ? '법인카드 변경' : '법인카드 등록'}
      </button>
      {done && <p role="status" className="mt-2 text-sm">법인카드를 등록했습니다. 회사 이름으로 한 예약은 이 카드로 결제됩니다.</p>}
      {checkout.failure && checkout.stage !== 'done' && <p role="alert" className="mt-2 text-sm text-muted">{checkout.failure}</p>}
    </section>
  );
}
