import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { dotDate } from '../../domain/dates';
import type { StatementView } from '../../domain/invoices';
import { won } from '../../domain/money';
import Alert from '../common/Alert';
import StatementDetail from './StatementDetail';

type Companies = Extract<Awaited<ReturnType<typeof loadCompanies>>, { ok: true }>['data']['companies'];

const loadCompanies = () => call((o) => client.companies.statements.$get({}, o));

/**
 * /my/statements: the monthly statements of the companies the user runs (회사 관리자), newest first;
 * `?id=` (the statement message's link) opens one, else the newest.
 */
export default function CompanyStatements() {
  const [companies, setCompanies] = useState<Companies | null>(null);
  const [open, setOpen] = useState<StatementView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const show = async (companyId: number, id: number) => {
    const res = await call((o) => client.companies[':companyId'].statements[':id'].$get({ param: { companyId: String(companyId), id: String(id) } }, o));
    if (res.ok) setOpen(res.data.statement);
    else setError(res.error.message);
  };

  useEffect(() => {
    void loadCompanies().then((res) => {
      if (!res.ok) return setError(res.status === 401 ? '로그인이 필요합니다.' : '청구서를 불러오지 못했습니다.');
      setCompanies(res.data.companies);
      const wanted = Number(new URLSearchParams(location.search).get('id'));
      const all = res.data.companies.flatMap((c) => c.statements.map((s) => ({ company: c.id, id: s.id })));
      const first = all.find((s) => s.id === wanted) ?? all[0];
      if (first) void show(first.company, first.id);
    });
  }, []);

  if (error) return <Alert>{error}</Alert>;
  if (!companies) return <p className="text-sm text-muted" role="status">불러오는 중…</p>;
  if (!companies.length) return <p className="text-sm text-muted">관리자로 등록된 회사가 없습니다. 회사 관리자만 월별 청구서를 볼 수 있습니다.</p>;
  return (
    <div className="space-y-10 md:grid md:grid-cols-[16rem_1fr] md:gap-10 md:space-y-0">
      <nav aria-label="청구서 목록" className="space-y-6">
        {companies.map((c) => (
          <section key={c.id} aria-label={c.name}>
            <h2 className="font-semibold">{c.name}</h2>
            <p className="text-xs text-muted">세금계산서 수신: {c.invoice_email}</p>
            {!c.statements.length && <p className="mt-2 text-sm text-muted">아직 발행된 청구서가 없습니다. 후불 예약의 청구서는 매월 1일에 발행됩니다.</p>}
            <ul className="mt-2 divide-y divide-line border-y border-line">
              {c.statements.map((s) => (
                <li key={s.id}>
                  <button type="button" aria-current={open?.id === s.id ? 'true' : undefined} onClick={() => void show(c.id, s.id)} className={`flex min-h-11 w-full flex-wrap items-baseline justify-between gap-2 py-2 text-left text-sm ${open?.id === s.id ? 'font-semibold' : ''}`} data-testid="statement-item">
                    <span>{s.month_label}</span>
                    <span className="tabular-nums">{won(s.total)}</span>
                    <span className="w-full text-xs tabular-nums text-muted" data-testid="statement-item-vat">공급가액 {won(s.supply)} · 부가세 {won(s.vat)}</span>
                    <span className={`w-full text-xs ${s.overdue ? 'text-red-700' : 'text-muted'}`}>{s.status_label}{s.status === 'ISSUED' ? ` · 기한 ${dotDate(s.due_date)}` : ''}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
      <div>{open && <StatementDetail s={open} />}</div>
    </div>
  );
}
