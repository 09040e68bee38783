import type { CouponHolding } from '../../domain/pricing';
import CouponSelect from '../checkout/CouponSelect';
import PointInput from '../checkout/PointInput';

interface Props {
  loggedIn: boolean;
  /** Coupons that fit the car's base fee (valid, unused, in period, min/max). */
  coupons: CouponHolding[];
  baseFee: number;
  couponId: number | null;
  onCoupon: (id: number | null) => void;
  balance: number;
  limit: number;
  points: string;
  onPoints: (digits: string) => void;
  /** Why the points box shows less than was typed (lowered to the most usable now), or null. */
  note?: string | null;
}

/** Coupon and points of the shared checkout; visitors are told to log in first. */
export default function CouponPoints({ loggedIn, coupons, baseFee, couponId, onCoupon, balance, limit, points, onPoints, note = null }: Props) {
  return (
    <section aria-labelledby="discount-h" className="space-y-4">
      <h2 id="discount-h" className="text-lg font-semibold">쿠폰 및 포인트</h2>
      {loggedIn ? (
        <>
          <div>
            <p className="mb-1 text-sm font-semibold">쿠폰</p>
            <CouponSelect coupons={coupons} fee={baseFee} value={couponId} onChange={onCoupon} />
          </div>
          <div>
            <p className="mb-1 text-sm font-semibold">포인트</p>
            <PointInput balance={balance} limit={limit} typed={points} onTyped={onPoints} steps />
            {note && <p role="status" className="mt-1 text-sm text-gold" data-testid="points-note">{note}</p>}
          </div>
        </>
      ) : (
        <p className="text-sm text-muted">로그인하면 쿠폰과 포인트를 사용할 수 있습니다.</p>
      )}
    </section>
  );
}
