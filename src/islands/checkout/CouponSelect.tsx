import { useState } from 'react';
import { won } from '../../domain/money';
import { couponDiscount, type CouponHolding } from '../../domain/pricing';

interface Props {
  coupons: CouponHolding[];
  fee: number;
  value: number | null;
  onChange: (id: number | null) => void;
}

const label = (h: CouponHolding, fee: number) => `${h.coupon.name} (-${won(couponDiscount(h.coupon, fee))})`;

/** Chooses none or exactly one of the coupons that fit the fee; the list scrolls past 260 px. */
export default function CouponSelect({ coupons, fee, value, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const chosen = coupons.find((h) => h.id === value) ?? null;
  const pick = (id: number | null) => {
    onChange(id);
    setOpen(false);
  };
  return (
    <div className="relative">
      <button
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between border border-line bg-white px-4 py-3 text-left"
      >
        <span>{chosen ? label(chosen, fee) : coupons.length ? '쿠폰 선택 안 함' : '사용 가능한 쿠폰이 없습니다'}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul role="listbox" aria-label="쿠폰 목록" className="absolute z-10 mt-1 max-h-[260px] w-full overflow-auto border border-line bg-white shadow-lg" data-testid="coupon-options">
          <li role="option" aria-selected={value === null} tabIndex={0} onClick={() => pick(null)} onKeyDown={(e) => e.key === 'Enter' && pick(null)} className="cursor-pointer px-4 py-3 hover:bg-paper">
            쿠폰 선택 안 함
          </li>
          {coupons.map((h) => (
            <li
              key={h.id}
              role="option"
              aria-selected={value === h.id}
              tabIndex={0}
              onClick={() => pick(h.id)}
              onKeyDown={(e) => e.key === 'Enter' && pick(h.id)}
              className="cursor-pointer px-4 py-3 hover:bg-paper"
            >
              {label(h, fee)}
              {h.coupon.description && <span className="block text-xs text-muted">{h.coupon.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
