import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  onClose?: () => void;
  children: ReactNode;
}

/** A modal on the native <dialog>: focus trap, Escape and the backdrop come from the browser. */
export default function Dialog({ open, title, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onCancel={(e) => {
        if (!onClose) e.preventDefault();
        else onClose();
      }}
      className="m-auto w-[min(92vw,28rem)] bg-paper p-6 text-ink shadow-2xl backdrop:bg-black/50"
    >
      {open && (
        <>
          <h2 className="text-lg font-bold">{title}</h2>
          <div className="mt-4">{children}</div>
        </>
      )}
    </dialog>
  );
}
