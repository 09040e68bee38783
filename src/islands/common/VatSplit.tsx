import { won } from '../../domain/money';
import { vatLines } from '../../domain/vat';

/**
 * 공급가액 · 부가세 of a VAT-inclusive price, as a company expects under every amount (issue 52):
 * the split is src/domain/vat.ts's, the one every statement line and 세금계산서 uses.
 */
function vatText(total: number): string {
  return vatLines(total).map((l) => `${l.label} ${won(l.amount)}`).join(' · ');
}

export default function VatSplit({ total, className = 'text-xs text-muted', testId = 'vat-split' }: { total: number; className?: string; testId?: string }) {
  return <span className={className} data-testid={testId}>({vatText(total)})</span>;
}
