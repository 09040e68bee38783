import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, users } from '../../src/api/db/schema';
import { sha256Hex, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { scrubLine } from '../../src/api/observability/logger';
import { createTestContext, customer, signupPerson, type TestContext } from './helpers';

/** Logs, request ids and metrics as an operator reads them (issue 51). */
const METRICS_TOKEN = 'scrape-token-scrape-token-0123';
let ctx: TestContext;
const lines: string[] = [];
const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  ctx = await createTestContext({ logLevel: 'info' }, { logSink: { write: (line) => void lines.push(line) } });
  ctx.config.metricsTokenHash = sha256Hex(METRICS_TOKEN);
});
afterAll(() => ctx.close());

describe('request ids', () => {
  it('answer every request with its id, keeping a proxy’s and replacing a malformed one', async () => {
    const fresh = await ctx.app.request('/health/live');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await ctx.app.request('/health/live', { headers: { 'x-request-id': 'proxy-abc-12345' } });
    expect(kept.headers.get('x-request-id')).toBe('proxy-abc-12345');
    const replaced = await ctx.app.request('/health/live', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).not.toContain('script');
  });

  it('follow a request into the jobs it enqueued: the job’s log line names it', async () => {
    const { user } = await customer(ctx);
    await ctx.database.db.update(users).set({ marketingConsent: true }).where(eq(users.id, user.id));
    const res = await ctx.app.request('/admin/notifications/marketing', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'x-request-id': 'campaign-req-0001' },
      body: JSON.stringify({ campaign: 'winter-drive', title: '겨울 드라이브', body: '눈길 타이어 교체 안내' }),
    });
    expect(res.status).toBe(202);
    const [queued] = await ctx.database.db.select().from(jobs).where(eq(jobs.requestId, 'campaign-req-0001'));
    expect(queued).toBeDefined();
    await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
    const jobLines = entries().filter((e) => e.msg === 'job' && e.request_id === 'campaign-req-0001');
    expect(jobLines.length).toBeGreaterThan(0);
    expect(jobLines[0]).toMatchObject({ kind: queued.kind, outcome: 'done', level: 'info' });
    const requestLine = entries().find((e) => e.msg === 'request' && e.request_id === 'campaign-req-0001');
    expect(requestLine).toMatchObject({ method: 'POST', route: '/admin/notifications/marketing', status: 202 });
  });
});

describe('log lines', () => {
  it('carry no customer’s email or phone number, whatever a flow sends', async () => {
    const before = lines.length;
    const { person } = await signupPerson(ctx);
    await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: 'wrong-password-1!' } });
    await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
    const written = lines.slice(before).join('\n');
    expect(written).toContain('"route":"/accounts/login"');
    expect(written).not.toContain(person.email);
    expect(written).not.toContain(person.mobile);
  });

  it('are scrubbed of an email or a phone number a caller put in them', () => {
    expect(scrubLine('{"msg":"sent to kim.minsu@example.co.kr at 010-1234-5678 and 01098765432"}')).toBe('{"msg":"sent to [email] at [phone] and [phone]"}');
    expect(scrubLine('{"ms":12.5,"status":200,"job":"charge:subscription:12:month:3"}')).toBe('{"ms":12.5,"status":200,"job":"charge:subscription:12:month:3"}');
  });
});

describe('GET /metrics', () => {
  it('is refused to a stranger and a customer', async () => {
    expect((await ctx.app.request('/metrics')).status).toBe(403);
    const { token } = await customer(ctx);
    expect((await ctx.call('GET', '/metrics', { token })).status).toBe(403);
    expect((await ctx.call('GET', '/metrics', { token: 'wrong-scrape-token-wrong-0000' })).status).toBe(403);
  });

  it('gives a scraper and staff the request, job, charge and message figures by route and kind', async () => {
    for (const token of [METRICS_TOKEN, TEST_ADMIN_TOKEN]) {
      const res = await ctx.app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toMatch(/luxe_http_requests_total\{method="POST",route="\/admin\/notifications\/marketing",status="202"\} 1/);
      expect(text).toContain('luxe_http_request_duration_seconds_bucket');
      expect(text).toMatch(/luxe_jobs\{kind="[\w.]+",state="due"\}/);
      expect(text).toMatch(/luxe_jobs_oldest_due_age_seconds\{kind=/);
      expect(text).toMatch(/luxe_notifications\{channel="\w+",status="\w+"\} \d+/);
      expect(text).not.toMatch(/route="\/[^"]*\d/);
    }
  });
});
