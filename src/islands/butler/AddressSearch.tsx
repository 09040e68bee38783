import { useId, useState } from 'react';
import KakaoPostcodeEmbed, { type Address } from 'react-daum-postcode';
import Dialog from '../checkout/Dialog';
import { usePostcodeScript } from './postcode-script';

/** Shown in the modal when the postcode script fails or does not load in time; typing by hand takes over. */
const POSTCODE_UNAVAILABLE = '주소 검색을 불러오지 못했습니다. 주소를 직접 입력해주세요.';
/** Next to the spinner while the postcode script loads. */
const POSTCODE_LOADING = '주소 검색을 불러오는 중입니다...';
/** Longest typed address: the API's MAX_LOCATION (src/domain/schemas/butler.ts, not imported to keep zod out of the island). */
const MAX_ADDRESS = 200;

/** The text a chosen address fills in: the road or lot address the user picked, with the building name. */
function addressText(a: Pick<Address, 'address' | 'roadAddress' | 'jibunAddress' | 'userSelectedType' | 'buildingName'>): string {
  const base = (a.userSelectedType === 'J' ? a.jibunAddress : a.roadAddress) || a.address;
  return a.buildingName ? `${base} (${a.buildingName})` : base;
}

interface Props {
  open: boolean;
  /** Dialog title, e.g. 출발지 주소 검색, 도착지 주소 검색, 경유지 주소 검색. */
  title: string;
  /** Gets the chosen or typed address; the dialog closes right after. */
  onSelect: (address: string) => void;
  onClose: () => void;
  /** Prefills the search box and the typed address (e.g. the field's current address). */
  defaultQuery?: string;
}

/**
 * A modal postcode search (react-daum-postcode); the script loads on first open. A booking never
 * waits on it: a spinner while it loads, and when it fails or takes longer than
 * POSTCODE_TIMEOUT_MS the address is typed by hand (직접 입력 is offered all along too).
 */
export default function AddressSearch({ open, title, onSelect, onClose, defaultQuery }: Props) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      {/* Dialog mounts its children only while open: each open starts in search mode with a fresh text. */}
      <Picker
        onSelect={(address) => {
          onSelect(address);
          onClose();
        }}
        defaultQuery={defaultQuery}
      />
      <button type="button" onClick={onClose} className="mt-4 w-full border border-ink py-3 text-sm font-semibold">
        닫기
      </button>
    </Dialog>
  );
}

function Picker({ onSelect, defaultQuery }: { onSelect: (address: string) => void; defaultQuery?: string }) {
  const script = usePostcodeScript();
  const [typing, setTyping] = useState(false);
  const manual = typing || script === 'failed';
  return (
    <div data-testid="postcode-search">
      {script === 'failed' && (
        <p role="alert" className="mb-4 text-sm text-red-800">
          {POSTCODE_UNAVAILABLE}
        </p>
      )}
      {manual ? (
        <ManualAddress initial={defaultQuery ?? ''} onSubmit={onSelect} />
      ) : script === 'loading' ? (
        <div role="status" className="flex h-40 items-center justify-center gap-3 text-sm">
          <span aria-hidden="true" className="size-5 rounded-full border-2 border-line border-t-ink motion-safe:animate-spin" />
          {POSTCODE_LOADING}
        </div>
      ) : (
        <KakaoPostcodeEmbed
          onComplete={(a) => onSelect(addressText(a))}
          defaultQuery={defaultQuery || undefined}
          style={{ width: '100%', height: 420 }}
          errorMessage={<p role="alert" className="py-6 text-sm text-red-800">{POSTCODE_UNAVAILABLE}</p>}
        />
      )}
      {script !== 'failed' && (
        <button type="button" onClick={() => setTyping(!typing)} className="mt-3 text-sm font-semibold underline underline-offset-4">
          {typing ? '주소 검색으로 돌아가기' : '직접 입력'}
        </button>
      )}
    </div>
  );
}

/**
 * Typing the address by hand. No <form>: the dialog may sit inside another form (the request edit),
 * so Enter is handled here and never submits the outer form.
 */
function ManualAddress({ initial, onSubmit }: { initial: string; onSubmit: (address: string) => void }) {
  const id = useId();
  const [text, setText] = useState(initial);
  const address = text.trim().replace(/\s+/g, ' ');
  const submit = () => {
    if (address) onSubmit(address);
  };
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-semibold">
        주소 직접 입력
      </label>
      <input
        id={id}
        type="text"
        // Focus follows the swap from the search (its button or the spinner is gone).
        autoFocus
        autoComplete="street-address"
        maxLength={MAX_ADDRESS}
        value={text}
        placeholder="예: 서울 중구 세종대로 110, 상세 주소"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
        className="field"
      />
      <button type="button" disabled={!address} onClick={submit} className="btn-primary w-full">
        입력 완료
      </button>
    </div>
  );
}
