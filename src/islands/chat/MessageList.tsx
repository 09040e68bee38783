import { useEffect, useRef } from 'react';
import type { BookingState } from '../../domain/chat/state';
import ActionButtons from './ActionButtons';
import type { ChatMessage } from './store';
import { CHAT_EMPTY, CHAT_ERROR } from './useChatSend';

const EXAMPLES = ['내일 오후 2시 인천공항에서 강남역까지 3명', '어떤 차량이 있나요?', '요금이 어떻게 되나요?'];

function Bubble({ m, state, busy }: { m: ChatMessage; state: BookingState; busy: boolean }) {
  if (m.role === 'user') {
    return <p className="ml-auto max-w-[85%] whitespace-pre-wrap bg-ink px-4 py-3 text-sm text-paper">{m.content}</p>;
  }
  if (m.failed) {
    return (
      <div role="alert" className="max-w-[85%] border border-danger bg-danger-soft px-4 py-3 text-sm text-danger">
        <p>{m.failed === 'error' ? CHAT_ERROR : CHAT_EMPTY}</p>
        {m.detail && <p className="mt-1 text-xs">{m.detail}</p>}
      </div>
    );
  }
  return (
    <div className="max-w-[92%]">
      {m.content ? (
        <p className="whitespace-pre-wrap border border-line bg-paper px-4 py-3 text-sm leading-6">{m.content}</p>
      ) : busy ? (
        <p className="border border-line bg-paper px-4 py-3 text-sm text-muted" data-testid="chat-typing">
          <span aria-hidden="true">···</span>
          <span className="sr-only">답변을 작성하고 있습니다.</span>
        </p>
      ) : null}
      {m.ui_triggers && <ActionButtons triggers={m.ui_triggers} state={state} />}
    </div>
  );
}

/** The conversation, newest at the bottom; the list scrolls itself as the answer streams. */
export default function MessageList({ messages, state, busy, onExample }: { messages: ChatMessage[]; state: BookingState; busy: boolean; onExample: (text: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  // Follow the answer as it streams and when its buttons arrive.
  useEffect(() => {
    box.current?.scrollTo({ top: box.current.scrollHeight });
  }, [messages]);

  return (
    <div ref={box} className="h-[55vh] min-h-72 overflow-y-auto px-4 py-4 md:h-[60vh]" tabIndex={0} role="region" aria-label="대화 내용">
      {messages.length === 0 ? (
        <div className="text-sm text-muted">
          <p>날짜, 시간, 출발지와 목적지, 인원, 원하시는 차량을 편하게 말씀해 주세요. 차량과 요금도 물어보실 수 있습니다.</p>
          <ul className="mt-4 flex flex-wrap gap-2">
            {EXAMPLES.map((e) => (
              <li key={e}>
                <button type="button" onClick={() => onExample(e)} className="min-h-11 border border-line bg-paper px-3 py-2 text-left text-xs text-ink hover:border-gold">
                  {e}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <ol className="space-y-4">
          {messages.map((m) => (
            <li key={m.id} className="flex flex-col" aria-label={m.role === 'user' ? '보낸 메시지' : '도우미 답변'}>
              <Bubble m={m} state={state} busy={busy && m === last} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
