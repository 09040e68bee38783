import { useState } from 'react';
import { call, client } from '../../client/api';
import Dialog from '../checkout/Dialog';
import { isOptionalConsent, ORDER_CONSENTS } from '../../domain/contract';

/** The 7 consents, in the spec's order, one optional (the contract lists them as given: src/domain/contract.ts). */
export const CONSENTS = ORDER_CONSENTS;

/** Index of the consent whose text is the published service terms (GET /services/terms). */
const SERVICE_TERMS = 1;

interface Props {
  checked: boolean[];
  onChange: (next: boolean[]) => void;
}

/** A term's text, loaded on first view: the live service terms from the API, the others from a lazy chunk. */
async function loadText(index: number): Promise<string> {
  if (index === SERVICE_TERMS) {
    const res = await call((o) => client.services.terms.$get({}, o));
    const current = res.ok ? [...res.data.terms].sort((a, b) => b.effective_date.localeCompare(a.effective_date))[0] : undefined;
    if (current) return current.content;
  }
  return (await import('./consent-texts')).CONSENT_TEXTS[index];
}

/** The consent boxes with 'all agree', which sets or clears every box; 보기 opens a term's text. */
export default function Consents({ checked, onChange }: Props) {
  const all = checked.every(Boolean);
  const [viewing, setViewing] = useState<{ index: number; text: string | null } | null>(null);

  async function view(index: number) {
    setViewing({ index, text: null });
    const text = await loadText(index).catch(() => '약관을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.');
    setViewing((v) => (v?.index === index ? { index, text } : v));
  }

  return (
    <fieldset className="border border-line p-4">
      <legend className="px-1 font-semibold">약관 동의</legend>
      <label className="flex min-h-11 items-center gap-3 border-b border-line pb-3 font-semibold">
        <input type="checkbox" className="h-5 w-5 shrink-0 accent-ink" checked={all} onChange={(e) => onChange(CONSENTS.map(() => e.target.checked))} />
        전체 동의
      </label>
      <ul className="mt-3 space-y-1 text-sm">
        {CONSENTS.map((label, i) => (
          <li key={label} className="flex items-center justify-between gap-3">
            <label className="flex min-h-11 items-center gap-3">
              <input
                type="checkbox"
                className="h-5 w-5 shrink-0 accent-ink"
                checked={checked[i]}
                onChange={(e) => onChange(checked.map((v, j) => (j === i ? e.target.checked : v)))}
              />
              <span>{isOptionalConsent(label) ? '[선택]' : '[필수]'} {label}</span>
            </label>
            <button type="button" onClick={() => void view(i)} aria-label={`${label} 보기`} className="min-h-11 min-w-11 shrink-0 px-1 text-xs text-muted underline underline-offset-4 hover:text-ink">
              보기
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-muted">[선택] 위치정보 이용약관에 동의하지 않아도 구독할 수 있습니다. 동의하면 탁송, 긴급 출동, 도난 대응에 차량 위치를 이용합니다.</p>
      <Dialog open={viewing !== null} title={viewing ? CONSENTS[viewing.index] : ''} onClose={() => setViewing(null)}>
        {viewing?.text === null ? (
          <p role="status" className="text-sm text-muted">로딩 중...</p>
        ) : (
          <div data-testid="consent-text" className="max-h-[55vh] overflow-y-auto whitespace-pre-line border-y border-line py-4 text-sm leading-7 text-ink/85">
            {viewing?.text}
          </div>
        )}
        <button type="button" onClick={() => setViewing(null)} className="mt-5 w-full bg-ink py-3 font-semibold text-paper">확인</button>
      </Dialog>
    </fieldset>
  );
}
