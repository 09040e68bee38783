/** The 7 required consents, in the spec's order. */
export const CONSENTS = [
  '정기결제 동의',
  '자동차 구독 서비스 이용약관 동의',
  '반납 평가 기준 동의',
  '위치정보 이용약관 동의',
  '전자금융거래 기본약관 동의',
  '개인신용정보 수집·이용 동의',
  '개인신용정보 제공 동의',
] as const;

interface Props {
  checked: boolean[];
  onChange: (next: boolean[]) => void;
}

/** The consent boxes with 'all agree', which sets or clears every box. */
export default function Consents({ checked, onChange }: Props) {
  const all = checked.every(Boolean);
  return (
    <fieldset className="border border-line p-4">
      <legend className="px-1 font-semibold">약관 동의 (필수)</legend>
      <label className="flex items-center gap-3 border-b border-line pb-3 font-semibold">
        <input type="checkbox" className="h-5 w-5 accent-ink" checked={all} onChange={(e) => onChange(CONSENTS.map(() => e.target.checked))} />
        전체 동의
      </label>
      <ul className="mt-3 space-y-2 text-sm">
        {CONSENTS.map((label, i) => (
          <li key={label}>
            <label className="flex items-center gap-3">
              <input
                type="checkbox"
                className="h-5 w-5 accent-ink"
                checked={checked[i]}
                onChange={(e) => onChange(checked.map((v, j) => (j === i ? e.target.checked : v)))}
              />
              [필수] {label}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
