import KakaoPostcodeEmbed, { type Address } from 'react-daum-postcode';
import Dialog from '../checkout/Dialog';

/** Shown inside the modal when the postcode script cannot load (spec 3 §8). */
export const POSTCODE_UNAVAILABLE = '현재 Daum 우편번호 서비스를 이용할 수 없습니다. 잠시 후 다시 시도해주세요.';

/** The text a chosen address fills in: the road or lot address the user picked, with the building name. */
export function addressText(a: Pick<Address, 'address' | 'roadAddress' | 'jibunAddress' | 'userSelectedType' | 'buildingName'>): string {
  const base = (a.userSelectedType === 'J' ? a.jibunAddress : a.roadAddress) || a.address;
  return a.buildingName ? `${base} (${a.buildingName})` : base;
}

interface Props {
  open: boolean;
  /** Dialog title, e.g. 출발지 주소 검색, 도착지 주소 검색, 경유지 주소 검색. */
  title: string;
  /** Gets the chosen address; the dialog closes right after. */
  onSelect: (address: string) => void;
  onClose: () => void;
  /** Prefills the search box (e.g. the field's current address). */
  defaultQuery?: string;
}

/** A modal postcode search (react-daum-postcode); the script loads on first open. */
export default function AddressSearch({ open, title, onSelect, onClose, defaultQuery }: Props) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div data-testid="postcode-search">
        <KakaoPostcodeEmbed
          onComplete={(a) => {
            onSelect(addressText(a));
            onClose();
          }}
          defaultQuery={defaultQuery || undefined}
          style={{ width: '100%', height: 420 }}
          errorMessage={<p role="alert" className="py-6 text-sm text-red-800">{POSTCODE_UNAVAILABLE}</p>}
        />
      </div>
      <button type="button" onClick={onClose} className="mt-4 w-full border border-ink py-3 text-sm font-semibold">
        닫기
      </button>
    </Dialog>
  );
}
