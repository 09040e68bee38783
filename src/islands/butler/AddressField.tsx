interface Props {
  id: string;
  label: string;
  value: string;
  /** Opens the address search (click, Enter or Space). */
  onOpen: () => void;
  required?: boolean;
}

/**
 * A read-only address field that opens the postcode search instead of taking typing (spec 3 §5).
 * Typing by hand happens in that dialog (직접 입력, or on its own when the script fails: AddressSearch).
 */
export default function AddressField({ id, label, value, onOpen, required }: Props) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        readOnly
        required={required}
        aria-haspopup="dialog"
        value={value}
        placeholder="주소 검색"
        onClick={onOpen}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onOpen();
          }
        }}
        className="field cursor-pointer"
      />
    </div>
  );
}
