import { atom } from 'nanostores';
import { applyUpdates, BOOKING_KEYS, sanitizeState, type BookingState, type BookingUpdates, type UiTrigger } from '../../domain/chat/state';
import { asRecord } from '../../domain/json';

/** A message of the conversation (spec §3 "Chat message"). */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** ISO instant. */
  createdAt: string;
  ui_triggers?: UiTrigger[];
  /** The answer failed ('error') or came back empty ('empty'). */
  failed?: 'error' | 'empty';
  /** The server's own words about a failure (e.g. the rate limit). */
  detail?: string;
}

/** localStorage keys of the conversation and the booking state. */
const CHAT_KEYS = { history: 'butlerChatHistory', state: 'butlerChatState' } as const;
/** Messages kept; older ones are dropped. */
const MAX_HISTORY = 200;

export const $messages = atom<ChatMessage[]>([]);
export const $booking = atom<BookingState>({});

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // private mode or blocked storage
  }
}

/** A stored message with the fields the page relies on (the rest is shown as it was saved). */
function isMessage(value: unknown): value is ChatMessage {
  const m = asRecord(value);
  return !!m && typeof m.id === 'string' && (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string';
}

function readMessages(raw: string | null): ChatMessage[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    if (!Array.isArray(list)) return [];
    return list
      .filter(isMessage)
      .map((m) => (m.role === 'assistant' && !m.content && !m.failed ? { ...m, failed: 'empty' as const } : m)); // an answer cut off by a reload
  } catch {
    return [];
  }
}

let loaded = false;

/** Reads the stored conversation once (in the browser) and saves every later change. */
export function loadChat(): void {
  if (loaded) return;
  loaded = true;
  const ls = storage();
  if (!ls) return;
  $messages.set(readMessages(ls.getItem(CHAT_KEYS.history)));
  try {
    $booking.set(sanitizeState(JSON.parse(ls.getItem(CHAT_KEYS.state) ?? '{}')));
  } catch {
    $booking.set({});
  }
  $messages.listen((list) => ls.setItem(CHAT_KEYS.history, JSON.stringify(list.slice(-MAX_HISTORY))));
  $booking.listen((state) => ls.setItem(CHAT_KEYS.state, JSON.stringify(state)));
}

let counter = 0;
const newId = () => `${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Appends a message and returns its id. */
export function addMessage(role: ChatMessage['role'], content: string): string {
  const id = newId();
  $messages.set([...$messages.get(), { id, role, content, createdAt: new Date().toISOString() }].slice(-MAX_HISTORY));
  return id;
}

/** Changes one message (the streaming answer). */
export function patchMessage(id: string, patch: Partial<ChatMessage>): void {
  $messages.set($messages.get().map((m) => (m.id === id ? { ...m, ...patch } : m)));
}

/** Applies a reply's updates (null removes a key). */
export function updateBooking(updates: BookingUpdates): void {
  $booking.set(applyUpdates($booking.get(), updates));
}

/** Forgets the conversation and the booking state. */
export function clearChat(): void {
  $messages.set([]);
  $booking.set(applyUpdates($booking.get(), Object.fromEntries(BOOKING_KEYS.map((k) => [k, null]))));
}
