import type { ButlerQuote } from '../../domain/butler';
import { won } from '../../domain/money';
import { vatLines } from '../../domain/vat';
import PriceTable from '../checkout/PriceTable';

const minus = (n: number) => (n > 0 ? `-${won(n)}` : won(0));

/**
 * The fee summary: base (8 h), overtime hours × rate, coupon, points, final. Booked for a company
 * (`company`), no coupon or points apply and the final amount is split into 공급가액 and 부가세.
 */
export default function FeeSummary({ quote, company = false }: { quote: ButlerQuote | null; company?: boolean }) {
  return (
    <section aria-labelledby="fee-h" className="space-y-3">
      <h2 id="fee-h" className="text-lg font-semibold">요금 안내</h2>
      {quote ? (
        <PriceTable
          testId="fee-summary"
          rows={[
            { label: '기본 요금 (8시간)', value: won(quote.baseFee), testId: 'fee-base' },
            { label: `초과 요금 (${quote.overtimeHours}시간 × ${won(quote.overtimeRate)})`, value: won(quote.overtimeFee), testId: 'fee-overtime' },
            ...(company
              ? []
              : [
                  { label: '쿠폰 할인', value: minus(quote.couponDiscount), testId: 'fee-coupon' },
                  { label: '포인트 사용', value: minus(quote.points), testId: 'fee-points' },
                ]),
            { label: company ? '최종 결제 금액 (부가세 포함)' : '최종 결제 금액', value: won(quote.final), total: true, testId: 'fee-final' },
            ...(company ? vatLines(quote.final).map((l) => ({ label: l.label, value: won(l.amount), testId: l.label === '공급가액' ? 'fee-supply' : 'fee-vat' })) : []),
          ]}
        />
      ) : (
        <p className="text-sm text-muted">차량을 선택하면 요금이 표시됩니다.</p>
      )}
    </section>
  );
}
