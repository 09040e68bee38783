import { won } from '../../domain/money';
import { splitVat } from '../../domain/vat';

/** 공급가액 and 부가세 of a VAT-inclusive amount as a table under its label (VatSplit is the inline form) (splitVat, the one home of the rule). */
export default function VatTable({ label, total, testId }: { label: string; total: number; testId?: string }) {
  const s = splitVat(total);
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid={testId}>
      <dt className="font-semibold">{label}</dt>
      <dd className="text-right font-semibold tabular-nums">{won(s.total)}</dd>
      <dt className="text-muted">공급가액</dt>
      <dd className="text-right tabular-nums">{won(s.supply)}</dd>
      <dt className="text-muted">부가세</dt>
      <dd className="text-right tabular-nums">{won(s.vat)}</dd>
    </dl>
  );
}
