import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { carName } from '../../domain/chat/fleet';
import { isEmptyState } from '../../domain/chat/state';
import BookingCard from './BookingCard';
import Composer from './Composer';
import MessageList from './MessageList';
import { $booking, $messages, clearChat, loadChat, updateBooking } from './store';
import { useChatSend } from './useChatSend';

/** A positive integer ?carId, else null. */
const carIdFrom = (search: string) => {
  const n = Number(new URLSearchParams(search).get('carId'));
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** The butler chat: conversation, message box, booking summary; history and state survive reloads. */
export default function ChatPage() {
  const messages = useStore($messages);
  const booking = useStore($booking);
  const [carId, setCarId] = useState<number | null>(null);
  const chat = useChatSend(carId);

  useEffect(() => {
    loadChat();
    const id = carIdFrom(location.search);
    setCarId(id);
    // /chat?carId=… (from a car's page): that car starts in the booking state.
    if (id && $booking.get()['차량 번호'] !== id) {
      void call((o) => client.butlers.cars[':id'].$get({ param: { id: String(id) } }, o)).then((res) => {
        if (res.ok) updateBooking({ 차량: carName(res.data.car), '차량 번호': res.data.car.id });
      });
    }
  }, []);

  const clear = () => {
    chat.stop();
    clearChat();
  };

  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_18rem]">
      <section aria-labelledby="chat-title" className="flex min-w-0 flex-col self-start border border-line bg-white">
        <div className="flex items-center justify-between gap-2 border-b border-line px-4 py-1">
          <h2 id="chat-title" className="text-sm font-semibold">예약 도우미</h2>
          <a href="#booking-card" className="ml-auto inline-flex min-h-11 items-center px-1 text-xs underline md:hidden">예약 정보 보기</a>
          <button type="button" onClick={clear} disabled={!messages.length && isEmptyState(booking)} className="inline-flex min-h-11 items-center px-1 text-xs underline disabled:opacity-40">
            대화 지우기
          </button>
        </div>
        <MessageList messages={messages} state={booking} busy={chat.busy} onExample={(t) => void chat.send(t)} />
        <Composer busy={chat.busy} onSend={(t) => void chat.send(t)} onStop={chat.stop} placeholder={chat.nextPrompt} />
      </section>
      <BookingCard state={booking} onChange={updateBooking} />
      <p aria-live="polite" role="status" className="sr-only">{chat.announce}</p>
    </div>
  );
}
