import { cleanTestStorage, getTestStorage, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The console's table-driven sections call the routes their configs name in the typed client
 * (src/islands/admin/sections.tsx): the same requests the sections sent by path before, each
 * section's list (with the search query only where it searches), create, change, archive,
 * restore and delete. (That a wrong path, body or answer fails the type check: tests/types/admin-sections.ts.)
 */
useTestStorageEngine();
const session = await import('../../../src/stores/session');
const { loadRows, saveRow, actOnRow } = await import('../../../src/islands/admin/EntitySection');
const { brandsConfig, butlerConfig, carsConfig, faqConfig, modelsConfig, policyConfig } = await import('../../../src/islands/admin/sections');

const sent: { request: string; body: unknown; type: string | null }[] = [];
beforeEach(() => {
  cleanTestStorage();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => getTestStorage()[k] ?? null,
    setItem: (k: string, v: string) => setTestStorageKey(k, v),
    removeItem: (k: string) => setTestStorageKey(k, undefined),
  });
  session.signIn({ accessToken: 'staff-token', refreshToken: 'refresh', expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  sent.length = 0;
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    expect(headers.get('authorization')).toBe('Bearer staff-token');
    sent.push({ request: `${init.method} ${String(url).replace(/^.*?\/api/, '')}`, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body, type: headers.get('content-type') });
    return Promise.resolve(new Response(JSON.stringify({ code: 0, message: 'OK', data: {} }), { status: 200 }));
  });
});
afterEach(() => vi.unstubAllGlobals());

const sections = [
  ['차량', carsConfig([]), '/admin/cars?q=%EC%93%B0&archived=only&page=2', '/admin/cars'],
  ['의전 차량', butlerConfig([]), '/admin/butler-cars?q=%EC%93%B0&archived=only&page=2', '/admin/butler-cars'],
  ['브랜드', brandsConfig, '/admin/brands', '/admin/brands'],
  ['모델', modelsConfig([]), '/admin/brands', '/admin/models'],
  ['FAQ', faqConfig, '/admin/faqs', '/admin/faqs'],
  ['약관 문서', policyConfig, '/admin/policies', '/admin/policies'],
] as const;

describe('the catalogue sections', () => {
  it.each(sections)('%s: list, create, change and delete at its paths', async (_, config, list, base) => {
    const row = { id: 7 };
    expect((await loadRows(config, { q: '쓰', archived: 'only', page: 2 })).ok).toBe(true);
    await saveRow(config, null, { name: '새 항목' });
    await saveRow(config, row, { name: '바뀐 항목' });
    await actOnRow(config, row, 'delete');
    expect(sent.map((s) => s.request)).toEqual([`GET ${list}`, `POST ${base}`, `PATCH ${base}/7`, `DELETE ${base}/7`]);
    expect(sent.map((s) => s.body)).toEqual([undefined, { name: '새 항목' }, { name: '바뀐 항목' }, undefined]);
    expect(sent.map((s) => s.type)).toEqual([null, 'application/json', 'application/json', null]);
  });

  it.each(sections.filter(([, config]) => config.archivable))('%s: archive and restore', async (_, config, __, base) => {
    await actOnRow(config, { id: 7 }, 'archive');
    await actOnRow(config, { id: 7 }, 'restore');
    expect(sent.map((s) => s.request)).toEqual([`POST ${base}/7/archive`, `POST ${base}/7/restore`]);
  });

  it('only the cars and butler cars sections search and archive', () => {
    expect(sections.filter(([, c]) => c.searchable).map(([t]) => t)).toEqual(['차량', '의전 차량']);
    expect(sections.filter(([, c]) => c.archivable).map(([t]) => t)).toEqual(['차량', '의전 차량']);
  });
});
