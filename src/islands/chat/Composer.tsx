import { useEffect, useState, type KeyboardEvent } from 'react';
import { MAX_MESSAGE_CHARS } from '../../domain/chat/state';

/** The message box: Enter sends (Shift+Enter for a new line, never mid-IME), 중지 stops an answer. */
export default function Composer({ busy, onSend, onStop, placeholder }: { busy: boolean; onSend: (text: string) => void; onStop: () => void; placeholder: string | null }) {
  const [text, setText] = useState('');
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const submit = (e?: { preventDefault(): void }) => {
    e?.preventDefault();
    if (busy || !text.trim()) return;
    onSend(text);
    setText('');
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) submit(e);
  };

  return (
    <form onSubmit={submit} className="flex items-end gap-2 border-t border-line p-3">
      <label htmlFor="chat-input" className="sr-only">메시지</label>
      <textarea
        id="chat-input"
        rows={2}
        maxLength={MAX_MESSAGE_CHARS}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        placeholder={placeholder ?? '예: 내일 오후 2시 인천공항에서 강남역까지 3명'}
        className="field min-w-0 flex-1 resize-none py-2"
      />
      {busy ? (
        <button type="button" onClick={onStop} className="btn-outline shrink-0 px-4">중지</button>
      ) : (
        <button type="submit" disabled={!hydrated || !text.trim()} className="btn-primary shrink-0 px-4">보내기</button>
      )}
    </form>
  );
}
