import { chromium, type Page } from '@playwright/test';
import { SESSION_KEYS } from '../src/stores/session';

/**
 * Interaction to Next Paint on a mid-range phone: Chromium at 390×844 with the CPU slowed 4×
 * (CDP Emulation.setCPUThrottlingRate), the pages built and served as in production. Each
 * interaction is a real click, selection or typed key; its figure is the longest Event Timing
 * entry of it (input delay + processing + presentation, as INP counts), read from a
 * PerformanceObserver installed before the page's own scripts. Infinite scroll is not an
 * interaction INP counts, so the garage's next page reports the longest task (longtask entries)
 * between the scroll and the new cards. Figures only; nothing is asserted.
 */
export interface InteractionFigure {
  /** The longest event duration of the interaction, ms (Event Timing rounds to 8 ms). */
  ms: number;
}
export type PageInteractions = Record<string, InteractionFigure>;

const OBSERVER = `
  window.__inp = { events: [], tasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__inp.events.push({ id: e.interactionId, name: e.name, ms: e.duration, at: e.startTime });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__inp.tasks.push({ ms: e.duration, at: e.startTime });
  }).observe({ type: 'longtask', buffered: true });
`;

type Window = { __inp: { events: { id: number; ms: number; at: number }[]; tasks: { ms: number; at: number }[] } };

/** Runs `act` and answers the longest event entry that began after it started (0: every event under 16 ms). */
async function measure(page: Page, act: () => Promise<unknown>): Promise<InteractionFigure> {
  const from = await page.evaluate(() => performance.now());
  await act();
  // Event Timing entries arrive after the next frame: two frames, then read.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(100);
  const ms = await page.evaluate((since) => Math.max(0, ...(window as unknown as Window).__inp.events.filter((e) => e.at >= since).map((e) => e.ms)), from);
  return { ms: Math.round(ms) };
}

async function longestTask(page: Page, act: () => Promise<unknown>): Promise<InteractionFigure> {
  const from = await page.evaluate(() => performance.now());
  await act();
  const ms = await page.evaluate((since) => Math.max(0, ...(window as unknown as Window).__inp.tasks.filter((t) => t.at >= since).map((t) => t.ms)), from);
  return { ms: Math.round(ms) };
}

/** A verified test customer's access token (the bench product runs with TEST_FIXTURES=on). */
async function testUser(url: string, adminToken: string): Promise<string> {
  const res = await fetch(`${url}/api/admin/test-users`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: '{}' });
  if (!res.ok) throw new Error(`test user: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

export async function inpBench(url: string, adminToken: string): Promise<Record<string, PageInteractions>> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'] });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  await context.addInitScript(OBSERVER);
  const token = await testUser(url, adminToken);
  const out: Record<string, PageInteractions> = {};
  // A page whose controls changed reports its error instead of stopping the other pages' figures.
  const guarded = async (path: string, run: () => Promise<PageInteractions>): Promise<PageInteractions> =>
    run().catch((err: unknown) => {
      console.error(`INP ${path}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      return {};
    });
  const open = async (path: string) => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${url}${path}`, { waitUntil: 'networkidle' });
    return page;
  };
  try {
    // Signed in for the order page.
    const login = await context.newPage();
    await login.goto(`${url}/favicon.svg`);
    await login.evaluate(([keys, access]) => {
      const k = keys;
      localStorage.setItem(k.access, access);
      localStorage.setItem(k.expiry, String(Math.floor(Date.now() / 1000) + 86_400));
    }, [SESSION_KEYS, token] as const);
    await login.close();

    out['/inquire'] = await guarded('/inquire', async () => {
      const order = await open('/inquire?month=12&carId=1');
      const plans = order.getByTestId('order-options').getByRole('group', { name: '주행거리 플랜' }).getByRole('radio');
      await plans.first().waitFor({ timeout: 60_000 });
      const figures = {
        'mileage plan': await measure(order, () => plans.last().check()),
        'driver age': await measure(order, () => order.getByRole('group', { name: '최연소 운전자 연령' }).getByRole('radio').last().check()),
        'all consents': await measure(order, () => order.getByLabel('전체 동의').check()),
      };
      await order.close();
      return figures;
    });

    out['/garage'] = await guarded('/garage', async () => {
    const garage = await open('/garage');
    const grid = garage.getByTestId('garage-grid').locator('[data-car-id]');
    await grid.first().waitFor();
    const before = await grid.count();
    const figures = {
      'months filter 12': await measure(garage, () => garage.getByRole('group', { name: '기간(개월)' }).getByRole('button', { name: '12', exact: true }).click()),
      'available now': await measure(garage, () => garage.getByRole('button', { name: '지금 구독 가능' }).click()),
      'sort': await measure(garage, () => garage.getByLabel('정렬').selectOption({ index: 1 })),
      'filters reset': await measure(garage, () => garage.getByRole('group', { name: '기간(개월)' }).getByRole('button', { name: '전체' }).click()),
      'infinite scroll (longest task)': await longestTask(garage, async () => {
        await grid.last().scrollIntoViewIfNeeded();
        await garage.waitForFunction((n) => document.querySelectorAll('[data-testid="garage-grid"] [data-car-id]').length > n, before, { timeout: 15_000 }).catch(() => undefined);
      }),
    };
    await garage.close();
    return figures;
    });

    out['/butler/request'] = await guarded('/butler/request', async () => {
    const form = await open('/butler/request');
    await form.getByLabel('출발 시간').waitFor();
    const figures = {
      'car picker open': await measure(form, () => form.getByTestId('car-picker').click()),
      'car chosen': await measure(form, () => form.getByTestId('car-options').getByRole('option').first().click()),
      'passengers typed': await measure(form, () => form.getByLabel(/탑승 인원/).first().pressSequentially('3', { delay: 50 })),
    };
    await form.close();
    return figures;
    });

    out['/chat'] = await guarded('/chat', async () => {
    const chat = await open('/chat');
    const box = chat.getByLabel('메시지', { exact: true });
    await box.waitFor();
    const figures = {
      'message typed': await measure(chat, () => box.pressSequentially('내일', { delay: 50 })),
      'message sent': await measure(chat, () => box.press('Enter')),
    };
    await chat.close();
    return figures;
    });
  } finally {
    await browser.close();
  }
  return out;
}

export function printInp(figures: Record<string, PageInteractions>): void {
  console.log('\nINP on a mid-range phone (390 px, CPU 4× slower), longest event per interaction:');
  for (const [page, interactions] of Object.entries(figures)) {
    for (const [name, f] of Object.entries(interactions)) console.log(`  ${page.padEnd(16)} ${name.padEnd(32)} ${String(f.ms).padStart(5)} ms`);
  }
}
