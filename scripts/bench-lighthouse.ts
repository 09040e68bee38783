import { SESSION_KEYS } from '../src/stores/session';

/**
 * Lighthouse (mobile: Moto G power-class CPU, simulated slow 4G) on every public page and, for a
 * test account the bench makes through the admin test route (TEST_FIXTURES=on), on the pages of a
 * logged-in customer. Per page: the four category scores, FCP, LCP, CLS, TBT, the font bytes and
 * the total bytes transferred (cold cache). Figures only; nothing is asserted (the structure that
 * keeps them is tested in tests/e2e/first-view.spec.ts).
 */
export const PUBLIC_PAGES = ['/', '/garage', '/car/1', '/butler', '/fleet', '/chat', '/butler/request', '/faq', '/about', '/contact', '/login', '/signup'];
export const LOGGED_IN_PAGES = ['/my', '/inquire?month=12&carId=1', '/my/payments'];

export interface PageFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fontFiles: number;
  fontBytes: number;
  totalBytes: number;
  /** Audits of the four categories that did not pass (id: score), to see what to fix. */
  failed?: string[];
}

type NetworkItem = { url: string; resourceType?: string; transferSize?: number };

/** A logged-in customer: a verified test user through the admin test route; returns its access token. */
async function testUser(url: string, adminToken: string): Promise<string> {
  const res = await fetch(`${url}/api/admin/test-users`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: '{}' });
  if (!res.ok) throw new Error(`test user: ${res.status} ${await res.text()} (the bench product runs with TEST_FIXTURES=on)`);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

export async function lighthousePages(url: string, opts: { pages?: string[]; loggedInPages?: string[]; adminToken?: string; runs?: number } = {}): Promise<Record<string, PageFigures>> {
  const { default: lh } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const puppeteer = await import('puppeteer-core');
  const pages = opts.pages ?? PUBLIC_PAGES;
  const loggedIn = opts.adminToken ? (opts.loggedInPages ?? LOGGED_IN_PAGES) : [];
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const out: Record<string, PageFigures> = {};
  try {
    const token = loggedIn.length ? await testUser(url, opts.adminToken!) : undefined;
    const runs = Math.max(1, opts.runs ?? 1);
    for (const [path, session] of [...pages.map((p) => [p, false] as const), ...loggedIn.map((p) => [p, true] as const)]) {
      const results: PageFigures[] = [];
      for (let run = 0; run < runs; run++) {
        const page = await browser.newPage();
        const cdp = await page.createCDPSession();
        await cdp.send('Network.clearBrowserCache');
        // A first visit: local storage too (Lighthouse's own reset keeps it), or an earlier page's
        // remembered font (docs/decisions/fonts.md) would make every later page a returning visitor.
        await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' });
        if (session) {
          // The session the login page stores, then Lighthouse without its storage reset (which
          // would log the user out); the cache is cleared above instead.
          await page.goto(`${url}/favicon.svg`);
          await page.evaluate((keys, access) => {
            localStorage.setItem(keys.access, access);
            localStorage.setItem(keys.expiry, String(Math.floor(Date.now() / 1000) + 86_400));
          }, SESSION_KEYS, token!);
        }
        const result = await lh(`${url}${path}`, {
          output: 'json', logLevel: 'error', disableStorageReset: session,
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          formFactor: 'mobile', screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
        }, undefined, page);
        await page.close();
        const lhr = result!.lhr;
        const items = ((lhr.audits['network-requests'].details as { items?: NetworkItem[] } | undefined)?.items ?? []);
        const fonts = items.filter((i) => i.resourceType === 'Font');
        const score = (id: string) => Math.round((lhr.categories[id].score ?? 0) * 100);
        const failed = Object.values(lhr.categories).flatMap((c) => c.auditRefs)
          .filter((r) => r.weight > 0 && (lhr.audits[r.id].score ?? 1) < 0.9)
          .map((r) => `${r.id}:${lhr.audits[r.id].score}`);
        results.push({
          performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'), seo: score('seo'),
          fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue ?? 0),
          lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue ?? 0),
          cls: Number((lhr.audits['cumulative-layout-shift'].numericValue ?? 0).toFixed(3)),
          tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue ?? 0),
          fontFiles: fonts.length,
          fontBytes: fonts.reduce((n, i) => n + (i.transferSize ?? 0), 0),
          totalBytes: Math.round(lhr.audits['total-byte-weight'].numericValue ?? 0),
          ...(failed.length ? { failed } : {}),
        });
      }
      // The median run by performance score (Lighthouse's own advice for noisy machines).
      out[path] = results.sort((a, b) => a.performance - b.performance)[Math.floor(results.length / 2)];
    }
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
  return out;
}

export function printLighthouse(figures: Record<string, PageFigures>) {
  console.log('\nLighthouse (mobile, simulated slow 4G, cold cache):');
  console.log(`  ${'page'.padEnd(26)} perf  a11y  bp  seo   FCP ms  LCP ms  CLS    TBT  fonts  font KB  total KB`);
  for (const [page, f] of Object.entries(figures)) {
    console.log(`  ${page.padEnd(26)} ${String(f.performance).padStart(4)}  ${String(f.accessibility).padStart(4)} ${String(f.bestPractices).padStart(3)} ${String(f.seo).padStart(4)}  ${String(f.fcpMs).padStart(7)} ${String(f.lcpMs).padStart(7)}  ${f.cls.toFixed(3)} ${String(f.tbtMs).padStart(5)}  ${String(f.fontFiles).padStart(5)}  ${(f.fontBytes / 1024).toFixed(1).padStart(7)}  ${(f.totalBytes / 1024).toFixed(1).padStart(8)}${f.failed ? `  ${f.failed.join(' ')}` : ''}`);
  }
}
