import { useCallback, useEffect, useMemo, useState } from 'react';
import { isLoggedIn, saveRedirect } from '../../stores/session';
import { call, client } from '../../client/api';
import { CHANGED_EVENT } from './admin-api';
import AuditSection from './AuditSection';
import CardTaxInvoicesSection from './CardTaxInvoicesSection';
import CompaniesSection from './CompaniesSection';
import DispatchSection from './DispatchSection';
import DriversSection from './DriversSection';
import EntitySection from './EntitySection';
import JobsSection from './JobsSection';
import InvoicesSection from './InvoicesSection';
import OrdersSection from './OrdersSection';
import PaymentsSection from './PaymentsSection';
import PublishPanel from './PublishPanel';
import { brandsConfig, butlerConfig, carsConfig, faqConfig, modelsConfig, policyConfig, type BrandOption } from './sections';
import Alert from '../common/Alert';

const TABS = [
  ['cars', '차량'],
  ['brands', '브랜드'],
  ['models', '모델'],
  ['butler', '의전 차량'],
  ['faq', 'FAQ'],
  ['policies', '약관/개인정보처리방침'],
  ['orders', '주문'],
  ['payments', '결제'],
  ['invoices', '청구서'],
  ['card-tax', '카드 결제 세금계산서'],
  ['drivers', '기사'],
  ['dispatch', '배차'],
  ['companies', '법인'],
  ['audit', '변경 이력'],
  ['jobs', '작업'],
] as const;
type Tab = (typeof TABS)[number][0];

function toLogin() {
  saveRedirect(location.pathname + location.search);
  location.assign('/login');
}

/** The staff console at /admin: staff accounts only (others see 권한이 없습니다). */
export default function AdminConsole() {
  const [access, setAccess] = useState<'checking' | 'ok' | 'denied' | 'failed'>('checking');
  const [message, setMessage] = useState<string | null>(null);
  const [brands, setBrands] = useState<BrandOption[]>([]);
  const [tab, setTab] = useState<Tab>(() => {
    const hash = typeof location !== 'undefined' ? location.hash.slice(1) : '';
    return TABS.find(([k]) => k === hash)?.[0] ?? 'cars';
  });

  const loadBrands = useCallback(async () => {
    const res = await call((o) => client.admin.brands.$get({}, o));
    if (res.ok) {
      setBrands(res.data.brands);
      setAccess('ok');
    } else if (res.status === 401) toLogin();
    else if (res.status === 403) setAccess('denied');
    else {
      setMessage(res.error.message);
      setAccess('failed');
    }
  }, []);
  useEffect(() => {
    const onHash = () => {
      const k = TABS.find(([key]) => key === location.hash.slice(1))?.[0];
      if (k) setTab(k);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (!isLoggedIn()) return toLogin();
    void loadBrands();
    const onChange = () => void loadBrands();
    window.addEventListener(CHANGED_EVENT, onChange);
    return () => window.removeEventListener(CHANGED_EVENT, onChange);
  }, [loadBrands]);

  const configs = useMemo(
    () => ({ cars: carsConfig(brands), brands: brandsConfig, models: modelsConfig(brands), butler: butlerConfig(brands), faq: faqConfig, policies: policyConfig }),
    [brands],
  );

  if (access === 'checking') return <p className="text-sm text-muted">확인 중…</p>;
  if (access === 'denied')
    return (
      <div role="alert" className="border border-line bg-white px-5 py-6">
        <p className="text-lg font-bold">권한이 없습니다</p>
        <p className="mt-1 text-sm text-muted">직원 계정으로 로그인해야 관리 콘솔을 쓸 수 있습니다.</p>
        <a href="/" className="btn-outline mt-4 px-4 py-2">
          홈으로
        </a>
      </div>
    );
  if (access === 'failed')
    return (
      <Alert>
        {message}{' '}
        <button type="button" className="min-h-11 border border-line px-4 py-1.5 font-semibold" onClick={() => { setAccess('checking'); void loadBrands(); }}>다시 시도</button>
      </Alert>
    );

  const select = (k: Tab) => {
    setTab(k);
    history.replaceState(null, '', `#${k}`);
  };
  return (
    <div className="space-y-6">
      {/* The console's chrome stays off paper: only a section's own content prints (the 운행표). */}
      <div className="print:hidden">
        <PublishPanel canPublish />
      </div>
      <nav aria-label="관리 메뉴" className="-mx-4 overflow-x-auto px-4 print:hidden">
        <ul className="flex min-w-max border-b border-line">
          {TABS.map(([k, label]) => (
            <li key={k}>
              <button
                type="button"
                aria-current={tab === k ? 'page' : undefined}
                onClick={() => select(k)}
                className={`whitespace-nowrap border-b-2 px-3 py-2 text-sm font-semibold ${tab === k ? 'border-ink text-ink' : 'border-transparent text-muted'}`}
              >
                {label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'orders' ? (
        <OrdersSection />
      ) : tab === 'payments' ? (
        <PaymentsSection />
      ) : tab === 'invoices' ? (
        <InvoicesSection />
      ) : tab === 'card-tax' ? (
        <CardTaxInvoicesSection />
      ) : tab === 'drivers' ? (
        <DriversSection />
      ) : tab === 'dispatch' ? (
        <DispatchSection />
      ) : tab === 'companies' ? (
        <CompaniesSection />
      ) : tab === 'audit' ? (
        <AuditSection />
      ) : tab === 'jobs' ? (
        <JobsSection />
      ) : (
        <EntitySection key={tab} config={configs[tab]} />
      )}
    </div>
  );
}
