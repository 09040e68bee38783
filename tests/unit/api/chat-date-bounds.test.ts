import { describe, expect, it } from 'vitest';
import { tripProblems } from '../../../src/domain/butler';
import { ButlerRequestUpdateSchema, ButlerReservationSchema } from '../../../src/domain/schemas/butler';
import { reconcileUpdates } from '../../../src/api/chat/dialogue';
import { validateUpdates } from '../../../src/api/chat/schemas';
import { FLEET, NOW } from './chat-fleet';

type Verdict = 'ok' | 'malformed' | 'past' | 'far';

/** The chat: the model's or the page's update through the state schema, then the dialogue's calendar check. */
function chatVerdict(date: string, time: string): Verdict {
  const valid = validateUpdates({ 날짜: date, '탑승 시간': time });
  if (valid.날짜 !== date || valid['탑승 시간'] !== time) return 'malformed';
  const { updates, warnings } = reconcileUpdates(valid, {}, { now: NOW, fleet: FLEET });
  if (updates.날짜 === date && updates['탑승 시간'] === time) return 'ok';
  return warnings.some((w) => w.includes('180일')) ? 'far' : 'past';
}

const body = (startAt: string) => ({ start_at: startAt, start_location: '서울역', end_location: '강남역', billing_key: 'bk' });

/** The API: POST /butlers/cars/{id}/request's body schema, then the service's tripProblems at the same now. */
function apiVerdict(date: string, time: string): Verdict {
  const startAt = `${date}T${time}:00+09:00`;
  const parsed = ButlerReservationSchema.safeParse(body(startAt));
  // The edit (PUT /butlers/requests/{id}) reads start_at the same way.
  expect(ButlerRequestUpdateSchema.safeParse(body(startAt)).success, startAt).toBe(parsed.success);
  if (!parsed.success) return 'malformed';
  const problems = tripProblems({ start: parsed.data.start_at, end: parsed.data.end_at }, NOW).filter((p) => p.field === 'start_at');
  if (!problems.length) return 'ok';
  return problems.some((p) => p.message.includes('180일')) ? 'far' : 'past';
}

// NOW is 2026-03-11 10:00 in Korea; the last bookable day is 2026-09-07.
const CASES: Array<[date: string, time: string, expected: Verdict]> = [
  ['2025-12-31', '10:00', 'past'],
  ['2026-03-01', '09:00', 'past'],
  ['2026-03-10', '23:59', 'past'],
  ['2026-03-11', '09:59', 'past'],
  ['2026-03-11', '10:00', 'past'],
  ['2026-03-11', '10:01', 'ok'],
  ['2026-03-11', '23:59', 'ok'],
  ['2026-03-12', '00:00', 'ok'],
  ['2026-09-07', '23:59', 'ok'],
  ['2026-09-08', '00:00', 'far'],
  ['2027-03-11', '09:00', 'far'],
  ['2026-03-12', '24:00', 'malformed'],
  ['2026-03-12', '09:60', 'malformed'],
  ['2026-03-12', '9:00', 'malformed'],
  ['2026-03-12', '25:00', 'malformed'],
  ['2026-02-30', '09:00', 'malformed'],
  ['2026-04-31', '09:00', 'malformed'],
  ['2026-13-01', '09:00', 'malformed'],
  ['2026-3-12', '09:00', 'malformed'],
];

describe('the chat refuses exactly the starts the booking API refuses', () => {
  it.each(CASES)('%s %s: %s', (date, time, expected) => {
    expect(apiVerdict(date, time)).toBe(expected);
    expect(chatVerdict(date, time)).toBe(expected);
  });
});
