import { formatWon } from '../../domain/money';
import { applicablePoints, POINT_STEP, roundPoints } from '../../domain/pricing';

interface Props {
  balance: number;
  /** Most that can be applied now: the balance and the price after the coupon. */
  limit: number;
  typed: string;
  onTyped: (digits: string) => void;
  /** The butler form's controls (spec 3 §5): +1만 / -1만 / 전액 and the 만원 hint; else 전액 사용 and the subscription's wording. */
  steps?: boolean;
}

const digitsOnly = (v: string) => v.replace(/\D/g, '').replace(/^0+(?=\d)/, '').slice(0, 10);

/** Point use: digits only, applied floored to 10,000 and capped; says so when that differs from the typed amount. */
export default function PointInput({ balance, limit, typed, onTyped, steps = false }: Props) {
  const applied = applicablePoints(typed, limit);
  const typedNumber = typed ? Number(typed) : 0;
  const nudge = (delta: number) => onTyped(String(roundPoints(applied + delta, limit)));
  const button = 'shrink-0 border border-ink px-3 py-3 text-sm font-semibold';
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
          onChange={(e) => onTyped(digitsOnly(e.target.value))}
          className="w-full min-w-0 border border-line bg-white px-4 py-3 text-right"
        />
        {steps && (
          <>
            <button type="button" onClick={() => nudge(POINT_STEP)} className={button}>+1만</button>
            <button type="button" onClick={() => nudge(-POINT_STEP)} className={button}>-1만</button>
          </>
        )}
        <button type="button" onClick={() => onTyped(String(steps ? limit : balance))} className={button}>
          {steps ? '전액' : '전액 사용'}
        </button>
      </div>
      {steps ? (
        roundPoints(typedNumber) !== typedNumber && <p className="mt-1 text-sm text-gold" role="status">만원 단위로 입력해주세요</p>
      ) : (
        <p className="mt-1 text-xs text-muted">포인트는 10,000원 단위로 사용할 수 있습니다.</p>
      )}
      {typedNumber !== applied && (
        <p className="mt-1 text-sm text-gold" role="status">
          {formatWon(applied)} P로 적용됩니다.
        </p>
      )}
    </div>
  );
}
