import { useRef, useState } from 'react';
import { sendChat } from '../../client/chat';
import { $booking, addMessage, patchMessage, updateBooking } from './store';

/** The texts of a failed and of an empty answer (spec §8's 'An error occurred.' and 'No response.' in Korean). */
export const CHAT_ERROR = '오류가 발생했습니다. 잠시 후 다시 시도해주세요.';
export const CHAT_EMPTY = '응답이 없습니다. 잠시 후 다시 시도해주세요.';

/** Sending a message: the user's line, the streaming answer, its updates, and what the live region says. */
export function useChatSend(carId: number | null) {
  const [busy, setBusy] = useState(false);
  const [announce, setAnnounce] = useState('');
  const [nextPrompt, setNextPrompt] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const send = async (text: string) => {
    const message = text.trim();
    if (!message || abort.current) return;
    addMessage('user', message);
    const id = addMessage('assistant', '');
    const ctrl = new AbortController();
    abort.current = ctrl;
    setBusy(true);
    setAnnounce('답변을 작성하고 있습니다.');
    const out = await sendChat({ message, carId, state: $booking.get() }, { signal: ctrl.signal, onText: (t) => patchMessage(id, { content: t }) });
    if (out.ok) {
      patchMessage(id, { content: out.answer.text, ui_triggers: out.answer.ui_triggers });
      updateBooking(out.answer.updates);
      setNextPrompt(out.answer.next_prompt);
      setAnnounce(out.answer.text);
    } else {
      patchMessage(id, { content: '', failed: out.kind, detail: out.message });
      setAnnounce(out.kind === 'error' ? CHAT_ERROR : CHAT_EMPTY);
    }
    abort.current = null;
    setBusy(false);
  };

  /** Stops the answer being written (the server stops generating when the request closes). */
  const stop = () => abort.current?.abort();
  return { busy, announce, nextPrompt, send, stop };
}
