import { formatWon } from '../../domain/money';
import { applicablePoints } from '../../domain/pricing';

interface Props {
  balance: number;
  /** Most that can be applied now: the balance and the price after the coupon. */
  limit: number;
  typed: string;
  onTyped: (digits: string) => void;
}

/** Point use: digits only, applied floored to 10,000 and capped; says so when that differs from the typed amount. */
export default function PointInput({ balance, limit, typed, onTyped }: Props) {
  const applied = applicablePoints(typed, limit);
  const typedNumber = typed ? Number(typed) : 0;
  return (
    <div>
      <p className="text-sm text-muted">
        보유 포인트 <strong className="text-ink" data-testid="point-balance">{formatWon(balance)} P</strong>
      </p>
      <div className="mt-2 flex gap-2">
        <input
          inputMode="numeric"
          aria-label="사용할 포인트"
          placeholder="0"
          value={typed}
          onChange={(e) => onTyped(e.target.value.replace(/\D/g, '').replace(/^0+(?=\d)/, '').slice(0, 10))}
          className="w-full border border-line bg-white px-4 py-3 text-right"
        />
        <button type="button" onClick={() => onTyped(String(balance))} className="shrink-0 border border-ink px-4 py-3 text-sm font-semibold">
          전액 사용
        </button>
      </div>
      <p className="mt-1 text-xs text-muted">포인트는 10,000원 단위로 사용할 수 있습니다.</p>
      {typedNumber !== applied && (
        <p className="mt-1 text-sm text-gold" role="status">
          {formatWon(applied)} P로 적용됩니다.
        </p>
      )}
    </div>
  );
}
