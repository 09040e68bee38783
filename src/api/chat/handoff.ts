import { createHash } from 'node:crypto';
import type { ChatEvent } from './assistant';
import type { Deps } from '../http';
import { inTransaction } from '../db/client';
import { contact } from '../notifications/templates/staff-contact';
import { liveCustomer } from '../notifications/data';
import { emit } from '../notifications/events';
import { sessionUser } from '../auth/session-check';
import { ASKS_FOR_PERSON } from './parser';


/** Whether a chat message asks to be handed to staff. */
export const asksForPerson = (message: string) => ASKS_FOR_PERSON.test(message);

/** What the assistant says first when it hands the chat to staff. */
const HANDOFF_REPLY = '상담원 연결을 요청했습니다. 운영팀이 확인 후 남겨주신 연락처로 곧 연락드리겠습니다. ';

/** One hand-off per visitor in this window: asking again does not page staff again. */
const WINDOW_MS = 30 * 60_000;

const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Hands a chat to staff when the message asks for a person: a staff.chat_handoff event (staff are
 * told by email and KakaoTalk) with the message, the booking so far and, for a logged-in customer,
 * their contact. `client` is the caller's IP; with the token's user it keys the window.
 */
export async function chatHandoff(deps: Pick<Deps, 'db' | 'config' | 'clock'>, input: { message: string; state: Record<string, unknown>; authorization?: string; client: string }): Promise<boolean> {
  if (!asksForPerson(input.message)) return false;
  const token = /^Bearer\s+(\S+)$/i.exec(input.authorization ?? '')?.[1];
  const userId = token ? await sessionUser(deps.db, deps.config, token).then((s) => s.userId, () => null) : null;
  const who = userId ? `user:${userId}` : `ip:${input.client}`;
  const sessionKey = createHash('sha256').update(`${deps.config.jwtSecret}:${who}`).digest('hex').slice(0, 10);
  const now = deps.clock.now();
  const booking = Object.entries(input.state)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(', ') : String(v)}`)
    .join(' · ');
  const customer = userId ? contact(await liveCustomer(deps.db, userId)) : '비회원 (로그인하지 않음)';
  await inTransaction(deps.db, (tx) =>
    emit(tx, `staff.chat_handoff:${sessionKey}:${Math.floor(now.getTime() / WINDOW_MS)}`, { type: 'staff.chat_handoff', sessionKey, summary: short(input.message, 500), contact: customer, booking: short(booking, 500) }, now),
  );
  return true;
}

/** The assistant's answer, after the hand-off notice. */
export async function* afterHandoffNotice(events: AsyncGenerator<ChatEvent>): AsyncGenerator<ChatEvent> {
  yield { content: HANDOFF_REPLY };
  yield* events;
}
