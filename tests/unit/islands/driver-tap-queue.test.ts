import { describe, expect, it } from 'vitest';
import { addTap, flushTaps, loadTaps, PENDING_TAPS_KEY, saveTaps, type PendingTap, type SendResult } from '../../../src/islands/driver/tap-queue';

function memoryStore() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
}
const tap = (trip_id: number, stage: PendingTap['stage']): PendingTap => ({ trip_id, stage, tapped_at: '2026-12-01T00:00:00.000Z' });

describe('pending taps', () => {
  it('survive in storage, once per trip and stage; garbage reads as none', () => {
    const store = memoryStore();
    saveTaps(store, addTap(addTap([], tap(1, 'departed')), tap(1, 'departed')));
    expect(loadTaps(store)).toEqual([tap(1, 'departed')]);
    saveTaps(store, []);
    expect(store.m.has(PENDING_TAPS_KEY)).toBe(false);
    store.setItem(PENDING_TAPS_KEY, '{not json');
    expect(loadTaps(store)).toEqual([]);
  });

  it('are sent in order; no connection stops the run and keeps the rest; a refusal is dropped with its message', async () => {
    const sent: string[] = [];
    const answers: Record<string, SendResult> = { departed: { kind: 'done' }, arrived: { kind: 'offline' } };
    const taps = [tap(1, 'departed'), tap(1, 'arrived'), tap(1, 'boarded')];
    const first = await flushTaps(taps, (t) => (sent.push(t.stage), Promise.resolve(answers[t.stage] ?? { kind: 'done' })));
    expect(sent).toEqual(['departed', 'arrived']);
    expect(first).toEqual({ left: [tap(1, 'arrived'), tap(1, 'boarded')], refused: [] });
    // Back online: the rest go; the server refuses one (out of order), which is not kept.
    const second = await flushTaps(first.left, (t) => Promise.resolve<SendResult>(t.stage === 'boarded' ? { kind: 'refused', message: '도착을 먼저 눌러주세요.' } : { kind: 'done' }));
    expect(second).toEqual({ left: [], refused: ['도착을 먼저 눌러주세요.'] });
  });
});
