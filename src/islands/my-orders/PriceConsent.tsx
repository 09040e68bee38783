import { priceConsentText } from '../../domain/price-consent';

/** The explicit consent to a new monthly fee before an extension or a swap is confirmed (src/domain/price-consent.ts). */
export default function PriceConsent({ fee, consented, onChange, disabled }: { fee: number; consented: number | null; onChange: (fee: number | null) => void; disabled?: boolean }) {
  return (
    <label className="mt-3 flex min-h-11 cursor-pointer items-start gap-2" data-testid="price-consent">
      <input type="checkbox" className="mt-1 size-5 shrink-0" checked={consented === fee} disabled={disabled} onChange={(e) => onChange(e.target.checked ? fee : null)} />
      <span className="font-semibold">{priceConsentText(fee)}</span>
    </label>
  );
}
