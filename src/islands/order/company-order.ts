import { cardLabel } from '../../domain/card-label';
import type { CompanyView } from '../../domain/company';

/** 회사 명의로 구독: the company (its admin orders) and the named driver, a member with the 운전자 role. */
export interface CompanyOrderChoice {
  company: CompanyView;
  driver: { id: number; name: string } | null;
}

/** How the company pays a subscription ordered in its name: its card, or 후불 on the monthly statement. */
export function companyPayment(company: CompanyView): string {
  return company.billing === 'INVOICE' ? '후불: 월별 청구서' : `회사 카드 ${company.card ? cardLabel(company.card) : '(등록되지 않음)'}`;
}
